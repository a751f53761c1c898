// plexus_info's human-readable rendering of the model (see model.h).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace plexus::info {

void print_core(std::ostream &out, const nlohmann::json &core);
void print_failures(std::ostream &out, const nlohmann::json &failures);
void print_params(std::ostream &out, const nlohmann::json &params);
void print_component(std::ostream &out, const nlohmann::json &component);
void print_selection(std::ostream &out, const nlohmann::json &selection);

}  // namespace plexus::info
