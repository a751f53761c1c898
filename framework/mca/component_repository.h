// Finding components: the static table, then every plexus_<framework>_<name>.so in the plugin
// folders, each opened and checked before anything in it runs. Failures are kept, with the file,
// the cause and a hint, for whoever needs to show them. A file the caller does not want yet (its
// framework's list leaves it out, or its framework opens on first use) is only noted, not opened:
// dlopen maps, relocates and runs the constructors of a plugin and its libraries, which a spawned
// child pays on its way to MPI_Init (bench/dpm README, "Where a spawn cycle's time goes").
#pragma once

#include <functional>
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

// A plugin file found but not opened yet.
struct DeferredFile {
    std::string path;
    std::string framework;
    std::string name;
};

// Whether a component file is opened by scan() (true) or left for later (false).
using LoadNow = std::function<bool(const std::string &framework, const std::string &name)>;

class ComponentRepository {
public:
    ComponentRepository(Loader &loader, std::vector<std::string> folders,
                        const plexus_component_t *const *static_table);

    // Loads the static table, then each folder in order (files sorted by name). A component
    // already found earlier is a duplicate: the first wins, the later file is a failure.
    // With load_now, a file it refuses is kept in deferred() instead of being opened.
    void scan(const LoadNow &load_now = nullptr);
    // Opens the deferred files that want() accepts (every one without it), in the order found;
    // returns the components they added (a file that fails becomes a failure, as in scan()).
    std::vector<ComponentRecord *> load_deferred(const LoadNow &want = nullptr);

    const std::vector<std::unique_ptr<ComponentRecord>> &components() const { return components_; }
    const std::vector<LoadFailure> &failures() const { return failures_; }
    const std::vector<DeferredFile> &deferred() const { return deferred_; }
    const std::vector<std::string> &folders() const { return folders_; }

    std::vector<ComponentRecord *> in_framework(std::string_view framework) const;  // by name
    ComponentRecord *find(std::string_view framework, std::string_view name) const;
    ComponentRecord *find(const plexus_component_t *desc) const;
    const LoadFailure *failure_for(std::string_view framework, std::string_view name) const;
    const DeferredFile *deferred_for(std::string_view framework, std::string_view name) const;

private:
    void add_static(const plexus_component_t *desc);
    void scan_folder(const std::string &folder, const LoadNow &load_now);
    ComponentRecord *load_file(const std::string &path, const std::string &framework,
                               const std::string &name);
    bool already_have(const std::string &path, const std::string &framework,
                      const std::string &name);

    Loader &loader_;
    std::vector<std::string> folders_;
    const plexus_component_t *const *static_table_;
    std::vector<std::unique_ptr<ComponentRecord>> components_;
    std::vector<LoadFailure> failures_;
    std::vector<DeferredFile> deferred_;
};

// Splits "plexus_coll_shm_inter.so" into {"coll", "shm_inter"}; false when the file name is not
// of that form or names no known framework.
bool parse_component_file_name(std::string_view file, std::string *framework, std::string *name);

}  // namespace plexus::mca
