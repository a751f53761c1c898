// The MCA core of one process: reads the parameter sources, finds and checks components, loads
// and registers the parameters of the ones the user's lists admit, opens them (a framework that
// serves nothing until first use, osc, at its first selection), and selects per framework.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <plexus/component.h>

#include "component_repository.h"
#include "framework.h"
#include "loader.h"
#include "base/param_registry.h"
#include "selection.h"

namespace plexus::runtime {
class Topology;
class ProgressEngine;
}  // namespace plexus::runtime

namespace plexus::mca {

struct CoreOptions {
    SourceConfig sources;
    // Start from the process's own settings (process_settings(): its files and environment, read
    // once per process); sources then adds to them (plexus_info's --mca).
    bool process_settings = false;
    // The folder beside libplexus (lib/plexus/plugins-<abi major>) is searched first unless this
    // is false (tests that must not see an installed Plexus).
    bool search_default_folder = true;
    // Open the components the lists admit (plexus_info --param needs registration only).
    bool open_components = true;
    // Load every component file found, excluded ones too, and open every framework at init
    // (plexus_info lists everything). Otherwise a file the framework's list leaves out is never
    // opened, and an OpenWhen::FirstUse framework's are opened at its first selection; a setting
    // that names no parameter of what was loaded has the other files loaded to register theirs
    // (load_for_settings), so that what is known and what is rejected do not change.
    bool load_all_components = false;

    static CoreOptions from_process();  // the real machine: files, environment (read once)
};

class McaCore {
public:
    explicit McaCore(CoreOptions options);
    ~McaCore();  // closes every opened component
    McaCore(const McaCore &) = delete;
    McaCore &operator=(const McaCore &) = delete;

    // Returns false when something the user asked for cannot be done: a value that does not
    // parse, a requested component that is missing. errors() says what; each was also printed.
    bool init();
    const std::vector<std::string> &errors() const { return errors_; }

    ParamRegistry &params() { return *params_; }
    const ComponentRepository &repository() const { return *repository_; }
    const std::vector<Framework> &frameworks() const { return frameworks_; }
    const Framework *framework(std::string_view name) const;
    const std::vector<std::string> &folders() const { return folders_; }
    const std::string &loader_name() const { return loader_name_; }

    // Selection for one scope (NULL for the process-wide frameworks). Errors are also printed.
    Selection select(std::string_view framework, const void *scope);

    runtime::Topology &topology();  // loaded on first use
    runtime::ProgressEngine &progress();
    const plexus_host_api_t *host_api() const;

    // The core whose host API components are talking to (the last one initialized).
    static McaCore *current();

    static std::string default_plugin_folder();  // beside libplexus

private:
    void register_core_params();
    void register_runtime();
    void register_framework_params();
    bool make_loader();
    void find_components();
    void register_component_params(ComponentRecord &c);
    void configure_frameworks();
    bool load_at_init(const std::string &framework, const std::string &name) const;
    void load_for_settings();
    void add_loaded(const std::vector<ComponentRecord *> &added);
    void refresh_members();
    std::vector<std::string> open_on_first_use(Framework &fw);
    Framework *mutable_framework(std::string_view name);
    void check_lists();
    void open_all_for_diagnosis(Framework &fw);
    void report_unknown_settings();
    void report_load_failures();
    void open_components();
    void open_one(ComponentRecord &c, const Framework &fw);
    void error(const std::string &where, const std::string &message);

    CoreOptions options_;
    std::unique_ptr<ParamRegistry> params_;
    std::unique_ptr<Loader> loader_;
    std::unique_ptr<ComponentRepository> repository_;
    std::vector<Framework> frameworks_;
    std::vector<std::string> folders_;
    std::vector<std::string> errors_;
    std::string loader_name_;
    std::unique_ptr<runtime::Topology> topology_;
    std::unique_ptr<runtime::ProgressEngine> progress_;
    // Two threads may make their first windows at once (MPI_THREAD_MULTIPLE): one opens osc.
    std::mutex first_use_lock_;
};

}  // namespace plexus::mca
