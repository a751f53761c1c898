// The per-communicator dispatch table of the COLL framework, as a pure function of what the
// selection returned: for every collective function, the modules that serve it, in the order
// they are tried (a module answering PLEXUS_COLL_DECLINE hands the call to the next one).
//
// Order within a function's chain: the components named by the plexus_coll_preference hint
// first, in the hint's order; then the module's priority[fn], highest first; ties keep the
// selection's rank order (its priority, then name). Modules that are NULL or whose struct is
// too small are left out with a note; a module serves fn when priority[fn] >= 0 and its pointer
// is set. Nothing here talks to anybody, so every process that selects alike builds alike.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <plexus/coll.h>

namespace plexus::mpi::coll {

// A module the selection produced, in its rank order.
struct Candidate {
    std::string component;  // "basic"
    plexus_coll_module_t *module = nullptr;
};

struct Link {
    plexus_coll_module_t *module = nullptr;
    int component = 0;  // index into Chains::components
    int priority = -1;  // module->priority[fn]
};

struct Chains {
    std::vector<std::string> components;                    // the candidates kept, rank order
    std::vector<plexus_coll_module_t *> modules;            // their modules (what release destroys)
    std::array<std::vector<Link>, PLEXUS_COLL_FUNCTION_COUNT> chain;
    std::vector<std::string> notes;                         // candidates left out, unknown preferences

    const std::string &name(const Link &l) const { return components[static_cast<size_t>(l.component)]; }
};

// "basic, sm" -> {"basic", "sm"}: comma separated, blanks around names ignored, empty names and
// repeats dropped.
std::vector<std::string> parse_preference(std::string_view text);

Chains build_chains(const std::vector<Candidate> &ranked, const std::vector<std::string> &preference);

// Whether module serves fn (priority >= 0 and a function pointer).
bool serves(const plexus_coll_module_t &module, int fn);

// "barrier", "bcast", ... (the member names of plexus_coll_functions_t) and "MPI_Barrier", ...
const char *function_name(int fn);
const char *mpi_function_name(int fn);

// One line per function for coll_base_verbose: "bcast: basic (priority 10); fallback: none".
std::string describe_chain(const Chains &chains, int fn);

}  // namespace plexus::mpi::coll
