// The environment ranks start with: plexrun's own, less any outer PMIx server's variables,
// plus the --mca parameters (docs/runtime-contract.md), the app's additions and libpmix's.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace plexrun {

class Environment {
public:
    // plexrun's environ without PMIX_* (but with PMIX_MCA_*, which users set on purpose) and
    // without PLEXUS_MCA_FROM_CLI: an outer launcher's values would mislead the ranks.
    static Environment inherited();

    // NAME=VALUE, replacing an earlier NAME.
    void set(const std::string &entry);
    void set(const std::string &name, const std::string &value) { set(name + "=" + value); }
    void unset(const std::string &name);
    std::string get(const std::string &name) const;  // empty if unset
    const std::vector<std::string> &entries() const { return entries_; }

private:
    std::vector<std::string> entries_;
};

// inherited() plus PLEXUS_MCA_<name>=<value> for each --mca, and PLEXUS_MCA_FROM_CLI naming them.
Environment rank_environment(const std::vector<std::pair<std::string, std::string>> &mca);

}  // namespace plexrun
