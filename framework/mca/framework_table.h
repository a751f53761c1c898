// The one table of the component frameworks: name, how each selects, the interface version this
// core implements, what query() is given, and a line for plexus_info. The descriptor checks, the
// repository's file-name parsing, the parameters registered per framework, plexus_info and every
// "did you mean" about a framework name are derived from it, so a new framework is one row here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plexus::mca {

enum class SelectPolicy {
    MultiSelect,   // btl: every usable component, ranked
    PerScope,      // coll, osc: ranked per communicator / window; later entries are fallbacks
    SingleSelect,  // dpm: the highest-priority usable one, required when used
    ZeroOrOne,     // reconf: the highest-priority usable one, or none
};

// What query() is handed (see the framework's header).
enum class QueryScope {
    Process,       // NULL: the module serves the whole process
    Communicator,  // plexus_coll_scope_t
    Window,        // plexus_osc_scope_t
};

// When the framework's components are opened: at MPI_Init, or when it is first asked to select
// (osc: the first window). A process that never uses the framework never maps its plugins.
enum class OpenWhen {
    Init,
    FirstUse,
};

struct InterfaceVersion {
    uint16_t major;
    uint16_t minor;
};

struct FrameworkSpec {
    const char *name;
    SelectPolicy policy;
    InterfaceVersion version;  // PLEXUS_<FW>_MAJOR / MINOR of this core
    QueryScope scope;
    const char *description;
    OpenWhen open_when;
};

// Every framework, in the order plexus_info lists them.
const std::vector<FrameworkSpec> &framework_table();
// nullptr for a name not in the table.
const FrameworkSpec *find_framework_spec(std::string_view name);

// "btl, coll, osc, dpm, reconf" (separator between names).
std::string framework_name_list(std::string_view separator = ", ");
// What to tell someone who wrote an unknown framework name: the closest one ("did you mean
// 'osc'? ") and the list of all of them.
std::string unknown_framework_hint(std::string_view name);

const char *policy_name(SelectPolicy policy);
const char *scope_name(QueryScope scope);
std::string version_text(InterfaceVersion version);  // "1.1"

}  // namespace plexus::mca
