// What plexus_info knows, as one JSON document built from the MCA core; the text report and
// --json both render it, so they can never disagree.
#pragma once

#include <nlohmann/json.hpp>

#include "mca/mca_core.h"
#include "options.h"

namespace plexus::info {

nlohmann::json describe_core(mca::McaCore &core);
nlohmann::json describe_failures(const mca::McaCore &core);
// Parameters matching the filter, up to level; "hidden" counts those above it.
nlohmann::json describe_params(mca::McaCore &core, const std::string &framework,
                               const std::string &component, int level);
nlohmann::json describe_component(mca::McaCore &core, const std::string &framework,
                                  const std::string &name, int level);
// Dry run of a selection; the scope of coll and osc is built from the options.
nlohmann::json describe_selection(mca::McaCore &core, const std::string &framework, const Options &o);

}  // namespace plexus::info
