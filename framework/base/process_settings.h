// The parameter settings of this process as its files and environment state them, read once: the
// runtime (which starts before the MCA core) and the MCA core take them from here, so that
// MPI_Init reads mca-params.conf, the drop-in folder, ~/.plexus/mca-params.conf and the
// environment one time, and a file that does not parse is reported once.
#pragma once

#include <string>
#include <vector>

#include "base/param_sources.h"

namespace plexus::mca {

struct ProcessSettings {
    std::vector<Setting> settings;
    std::vector<std::string> errors;  // "file:line: ..." for lines that do not parse
};

// Read at the first call (thread-safe), the same object afterwards.
const ProcessSettings &process_settings();

}  // namespace plexus::mca
