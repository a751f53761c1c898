// Messages to the user: errors and warnings (each distinct warning once per process) and
// verbose tracing gated per framework by <framework>_base_verbose.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <plexus/output.h>

namespace plexus::mca {

// Where lines go; stderr by default. Tests capture them.
using OutputSink = std::function<void(const std::string &line)>;
void set_output_sink(OutputSink sink);  // empty sink restores stderr

void set_framework_verbosity(std::string_view framework, int level);
int framework_verbosity(std::string_view framework);
void reset_output_state();  // verbosity and the warned-once memory; between tests

// where: "btl", "btl_sm", "mca" ... Error and warning levels always print; a verbose level
// prints when it is at or below the verbosity of where's framework (its text up to the first '_').
void emit(int level, std::string_view where, std::string_view message);
// A warning printed the first time its text is seen, never again in this process.
void warn_once(std::string_view where, std::string_view message);

}  // namespace plexus::mca
