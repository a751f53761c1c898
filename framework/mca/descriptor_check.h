// The checks a component descriptor must pass before the core calls any of its functions: magic,
// size, ABI and framework interface versions (from the framework table), and names that match the
// file it came from.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <plexus/component.h>

namespace plexus::mca {

struct DescriptorProblem {
    std::string cause;  // what is wrong, e.g. "built for MCA ABI 2.0, this core is 1.0"
    std::string hint;   // what to do, e.g. "rebuild it against this Plexus's SDK"
};

// Checks d (which may be garbage: read only what magic and struct_size vouch for). expected_*
// are the names the file name promises (plexus_<framework>_<name>.so); pass empty views for a
// descriptor that came from the static table.
std::optional<DescriptorProblem> check_descriptor(const plexus_component_t *d,
                                                  std::string_view expected_framework,
                                                  std::string_view expected_name);

}  // namespace plexus::mca
