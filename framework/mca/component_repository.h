// Finding components: the static table, then every plexus_<framework>_<name>.so in the plugin
// folders, each opened and checked before anything in it runs. Failures are kept, with the file,
// the cause and a hint, for whoever needs to show them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <plexus/component.h>

#include "loader.h"

namespace plexus::mca {

struct ComponentRecord {
    enum class State { Loaded, Opened, Unusable, Closed };

    const plexus_component_t *desc = nullptr;
    std::string framework;
    std::string name;
    std::string origin;  // the file, or "static (linked into libplexus)"
    std::unique_ptr<LoadedObject> object;  // null for static components
    State state = State::Loaded;
    std::string unusable_reason;  // open() declined, or registration failed, or excluded

    std::string full_name() const { return framework + "_" + name; }
    std::string version() const;
};

struct LoadFailure {
    std::string file;
    std::string framework;  // from the file name, when it has the expected form
    std::string name;
    std::string cause;  // the loader's or the check's own words
    std::string hint;   // what to do about it
};

class ComponentRepository {
public:
    ComponentRepository(Loader &loader, std::vector<std::string> folders,
                        const plexus_component_t *const *static_table);

    // Loads the static table, then each folder in order (files sorted by name). A component
    // already found earlier is a duplicate: the first wins, the later file is a failure.
    void scan();

    const std::vector<std::unique_ptr<ComponentRecord>> &components() const { return components_; }
    const std::vector<LoadFailure> &failures() const { return failures_; }
    const std::vector<std::string> &folders() const { return folders_; }

    std::vector<ComponentRecord *> in_framework(std::string_view framework) const;  // by name
    ComponentRecord *find(std::string_view framework, std::string_view name) const;
    ComponentRecord *find(const plexus_component_t *desc) const;
    const LoadFailure *failure_for(std::string_view framework, std::string_view name) const;

private:
    void add_static(const plexus_component_t *desc);
    void scan_folder(const std::string &folder);
    void load_file(const std::string &path, const std::string &framework, const std::string &name);
    bool already_have(const std::string &path, const std::string &framework,
                      const std::string &name);

    Loader &loader_;
    std::vector<std::string> folders_;
    const plexus_component_t *const *static_table_;
    std::vector<std::unique_ptr<ComponentRecord>> components_;
    std::vector<LoadFailure> failures_;
};

// Splits "plexus_coll_shm_inter.so" into {"coll", "shm_inter"}; false when the file name is not
// of that form or names no known framework.
bool parse_component_file_name(std::string_view file, std::string *framework, std::string *name);

}  // namespace plexus::mca
