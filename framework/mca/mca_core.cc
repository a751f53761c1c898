#include "mca_core.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstring>

#include "btl_common_params.h"
#include "host_api.h"
#include "base/name_suggest.h"
#include "base/output.h"
#include "base/process_settings.h"
#include "plexus_config.h"
#include "runtime/progress.h"
#include "runtime/runtime.h"
#include "runtime/runtime_params.h"
#include "runtime/topology.h"
#include "static_components.h"

namespace plexus::mca {
namespace {

McaCore *g_current = nullptr;

bool is_dir(const std::string &path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> split_path(const std::string &text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t colon = text.find(':', start);
        std::string part = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!part.empty()) out.push_back(part);
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return out;
}

ParamSpec core_spec(std::string name, plexus_param_type_t type, std::string def, std::string help,
                    int level, std::string framework = "mca", std::string component = "base") {
    ParamSpec s;
    s.name = std::move(name);
    s.type = type;
    s.default_text = std::move(def);
    s.help = std::move(help);
    s.level = level;
    s.framework = std::move(framework);
    s.component = std::move(component);
    return s;
}

ParamSpec verbose_spec(const std::string &framework) {
    ParamSpec s = core_spec(framework + "_base_verbose", PLEXUS_PARAM_INT, "0",
                            "Trace the " + framework + " framework's decisions: 0 none, 1 selection, "
                            "10 per peer or object, 50 per operation, 100 all",
                            8, framework, "base");
    s.has_range = true;
    s.max = 100;
    return s;
}

}  // namespace

CoreOptions CoreOptions::from_process() {
    CoreOptions o;
    o.process_settings = true;
    return o;
}

namespace {

// The runtime's settings source (Runtime::set_settings_source): the parameters of the core that
// is current, which include what a tool or a test added to the process's own sources.
std::optional<runtime::RuntimeSettings> settings_of_current_core() {
    McaCore *core = McaCore::current();
    if (!core) return std::nullopt;
    return runtime::runtime_settings(core->params());
}

}  // namespace

McaCore::McaCore(CoreOptions options)
    : options_(std::move(options)), progress_(std::make_unique<runtime::ProgressEngine>()) {}

McaCore::~McaCore() {
    McaCore *previous = g_current;
    g_current = this;  // components may call the host API while closing
    if (repository_) {
        for (const auto &c : repository_->components()) {
            if (c->state != ComponentRecord::State::Opened) continue;
            c->desc->close();
            c->state = ComponentRecord::State::Closed;
        }
    }
    g_current = previous == this ? nullptr : previous;
}

McaCore *McaCore::current() { return g_current; }

std::string McaCore::default_plugin_folder() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(&McaCore::current), &info) || !info.dli_fname) return "";
    std::string lib = info.dli_fname;
    size_t slash = lib.rfind('/');
    std::string dir = slash == std::string::npos ? "." : lib.substr(0, slash);
    return dir + "/plexus/plugins-" + std::to_string(PLEXUS_MCA_ABI_MAJOR);
}

void McaCore::error(const std::string &where, const std::string &message) {
    errors_.push_back(where + ": " + message);
    emit(PLEXUS_LOG_ERROR, where, message);
}

bool McaCore::init() {
    g_current = this;
    runtime::Runtime::set_settings_source(settings_of_current_core);
    std::vector<std::string> source_errors;
    std::vector<Setting> settings;
    if (options_.process_settings) {
        settings = process_settings().settings;
        source_errors = process_settings().errors;
    }
    for (auto &s : collect_settings(options_.sources, &source_errors)) settings.push_back(std::move(s));
    params_ = std::make_unique<ParamRegistry>(std::move(settings));
    for (const auto &e : source_errors) error("mca", e);
    register_core_params();
    options_.load_all_components |= params_->find("mca_base_load_all_components")->value.i != 0;
    register_framework_params();
    configure_frameworks();  // the lists decide which files are loaded
    if (!make_loader()) return false;
    find_components();
    load_for_settings();
    refresh_members();
    report_unknown_settings();
    for (const auto &e : params_->errors()) error("mca", e);
    report_load_failures();
    if (options_.open_components) open_components();
    check_lists();  // after open, so that messages can say which components are usable
    return errors_.empty();
}

void McaCore::register_core_params() {
    std::string err;
    ParamSpec path = core_spec("mca_base_component_path", PLEXUS_PARAM_STRING, "",
                               "Colon-separated folders searched for components, after the folder "
                               "beside libplexus (lib/plexus/plugins-" +
                                   std::to_string(PLEXUS_MCA_ABI_MAJOR) + ")",
                               3);
    path.synonyms = {"component_path"};
    params_->register_param(path, nullptr, &err);
    ParamSpec loader = core_spec("mca_base_loader", PLEXUS_PARAM_ENUM, "ltdl",
                                 "How component files are opened: libltdl or Boost.DLL", 5);
    loader.enum_values = loader_names();
    params_->register_param(loader, nullptr, &err);
    params_->register_param(core_spec("mca_base_show_load_errors", PLEXUS_PARAM_BOOL, "false",
                                      "Print every component that failed to load, not only the "
                                      "ones a selection list names",
                                      4),
                            nullptr, &err);
    params_->register_param(core_spec("mca_base_load_all_components", PLEXUS_PARAM_BOOL, "false",
                                      "Load every component file at init, also those a framework's "
                                      "list leaves out, and open osc at init, not at the first window "
                                      "(plexus_info always does; for comparisons and diagnosis)",
                                      5),
                            nullptr, &err);
    params_->register_param(verbose_spec("mca"), nullptr, &err);
    register_runtime();
}

// The runtime is no component framework, but its parameters are the core's to show and its
// progress engine lives here.
void McaCore::register_runtime() {
    runtime::register_runtime_params(*params_);
    const runtime::RuntimeSettings s = runtime::runtime_settings(*params_);
    progress_->set_policy(s.progress);
    set_framework_verbosity("runtime", s.verbose);
}

void McaCore::register_framework_params() {
    std::string err;
    for (const auto &spec : framework_table()) {
        std::string fw = spec.name;
        params_->register_param(core_spec(fw, PLEXUS_PARAM_STRING, "",
                                          "Which " + fw + " components may be used: a,b (only "
                                          "these), ^a,b (all but these), empty for all",
                                          2, fw, "base"),
                                nullptr, &err);
        params_->register_param(verbose_spec(fw), nullptr, &err);
    }
    // Every wait of a dynamic-process call (accept, connect, join, the spawn handshake) is
    // bounded by it, whichever dpm component serves the process.
    ParamSpec timeout = core_spec("dpm_base_connect_timeout", PLEXUS_PARAM_INT, "60000",
                                  "Milliseconds MPI_Comm_accept/connect/join and the spawn handshake wait "
                                  "for the other side before failing with MPI_ERR_PORT or MPI_ERR_SPAWN",
                                  4, "dpm", "base");
    timeout.has_range = true;
    timeout.min = 1;
    timeout.max = 86400000;
    params_->register_param(timeout, nullptr, &err);
}

bool McaCore::make_loader() {
    loader_name_ = params_->find("mca_base_loader")->value.text;
    loader_ = mca::make_loader(loader_name_);
    if (!loader_) {
        error("mca", "mca_base_loader=" + loader_name_ + " is not available in this build");
        return false;
    }
    return true;
}

void McaCore::find_components() {
    std::string beside = default_plugin_folder();
    if (options_.search_default_folder && is_dir(beside)) folders_.push_back(beside);
    for (auto &f : split_path(params_->find("mca_base_component_path")->value.text)) {
        if (!is_dir(f)) emit(PLEXUS_LOG_WARN, "mca", "mca_base_component_path: no folder " + f);
        folders_.push_back(f);
    }
    repository_ = std::make_unique<ComponentRepository>(*loader_, folders_, kStaticComponents);
    if (options_.load_all_components)
        repository_->scan();
    else
        repository_->scan([this](const std::string &fw, const std::string &name) { return load_at_init(fw, name); });
    for (const auto &c : repository_->components()) register_component_params(*c);
}

// Open MPI's MCA base does the same: a component its framework's list leaves out is never
// dlopened, and a framework's components are opened when the framework is.
bool McaCore::load_at_init(const std::string &framework, const std::string &name) const {
    const Framework *fw = this->framework(framework);
    if (!fw) return true;
    if (!fw->list.admits(name)) {
        emit(PLEXUS_LOG_DECISION, framework,
             name + ": not loaded, " +
                 (fw->list.mode == SelectionList::Mode::Exclude ? "excluded by " : "not in ") + framework +
                 "=" + fw->list_text);
        return false;
    }
    if (fw->spec->open_when == OpenWhen::FirstUse) {
        emit(PLEXUS_LOG_DECISION, framework, name + ": loaded when " + framework + " is first used");
        return false;
    }
    return true;
}

// The parameters of a component that was not loaded are unknown until it is. Rather than an index
// of every component's parameters written at build time (which a plugin installed or rebuilt
// alone would make stale, and which cannot check a value), a setting that names nothing known has
// the remaining files loaded and their parameters registered, not opened: exactly what init did
// before files were left out, so a typo is still named with its closest name, and a bad value of
// an excluded component still fails. It costs only runs that set such parameters.
void McaCore::load_for_settings() {
    if (repository_->deferred().empty() || params_->unknown_settings().empty()) return;
    emit(PLEXUS_LOG_DECISION, "mca",
         "a setting names no parameter of the components loaded: loading the " +
             std::to_string(repository_->deferred().size()) + " others to register theirs");
    add_loaded(repository_->load_deferred());
}

void McaCore::add_loaded(const std::vector<ComponentRecord *> &added) {
    for (ComponentRecord *c : added) register_component_params(*c);
}

void McaCore::refresh_members() {
    for (auto &fw : frameworks_) fw.members = repository_->in_framework(fw.name());
}

void McaCore::register_component_params(ComponentRecord &c) {
    std::string err;
    ParamSpec prio = core_spec(c.full_name() + "_priority", PLEXUS_PARAM_INT, "-1",
                               "Overrides the priority " + c.full_name() +
                                   " asks for (0-100; -1 keeps the component's own)",
                               6, c.framework, c.name);
    prio.has_range = true;
    prio.min = -1;
    prio.max = PLEXUS_PRIORITY_MAX;
    params_->register_param(prio, nullptr, &err);
    if (c.framework == "btl" && !register_btl_common_params(*params_, c.name, &err))
        error(c.full_name(), err);
    if (!c.desc->register_params) return;
    int rc = c.desc->register_params(host_api(), c.desc);
    if (rc != PLEXUS_SUCCESS) {
        c.state = ComponentRecord::State::Unusable;
        c.unusable_reason = "register_params failed (" + std::to_string(rc) + ")";
    }
}

void McaCore::configure_frameworks() {
    for (const auto &spec : framework_table()) {
        Framework fw;
        fw.spec = &spec;
        const Param *p = params_->find(spec.name);
        fw.list_text = p->value.text;
        fw.list_origin = p->origin;
        set_framework_verbosity(spec.name, static_cast<int>(params_->find(std::string(spec.name) + "_base_verbose")->value.i));
        std::string err;
        if (auto list = parse_selection_list(spec.name, fw.list_text, &err)) {
            fw.list = *list;
        } else {
            error(spec.name, err + " [set in " + fw.list_origin + "]");
        }
        frameworks_.push_back(std::move(fw));
    }
    set_framework_verbosity("mca", static_cast<int>(params_->find("mca_base_verbose")->value.i));
}

// A requested component that is missing or unusable stops the job; before saying so, open the
// others too, so that the message can say which of them would have worked.
void McaCore::open_all_for_diagnosis(Framework &fw) {
    if (!options_.open_components || !fw.opened || fw.list.mode != SelectionList::Mode::Include) return;
    bool requested_missing = false;
    for (const auto &n : fw.list.names) {
        const ComponentRecord *c = repository_->find(fw.name(), n);
        requested_missing |= !c || c->state != ComponentRecord::State::Opened;
    }
    if (!requested_missing) return;
    add_loaded(repository_->load_deferred([&](const std::string &f, const std::string &) { return f == fw.name(); }));
    refresh_members();
    Framework everyone = fw;
    everyone.list = SelectionList{};
    for (ComponentRecord *c : fw.members) open_one(*c, everyone);
}

void McaCore::check_lists() {
    for (auto &fw : frameworks_) {
        open_all_for_diagnosis(fw);
        ListCheck check = check_selection_list(fw, *repository_);
        for (const auto &e : check.errors) error(fw.name(), e);
        for (const auto &w : check.warnings) warn_once(fw.name(), w);
    }
}

void McaCore::report_unknown_settings() {
    for (const auto &u : params_->unknown_settings()) {
        std::string msg = "'" + u.name + "' (" + u.origin + ") is not a known parameter";
        if (!u.suggestion.empty()) msg += "; did you mean '" + u.suggestion + "'?";
        warn_once("mca", msg);
    }
}

void McaCore::report_load_failures() {
    if (!params_->find("mca_base_show_load_errors")->value.i) return;
    for (const auto &f : repository_->failures())
        warn_once("mca", "cannot load " + f.file + ": " + f.cause + " (" + f.hint + ")");
}

void McaCore::open_components() {
    for (auto &fw : frameworks_) {
        if (!options_.load_all_components && fw.spec->open_when == OpenWhen::FirstUse) continue;
        fw.opened = true;
        for (ComponentRecord *c : fw.members) open_one(*c, fw);
    }
}

// An OpenWhen::FirstUse framework's admitted files are loaded, registered and opened by its first
// selection; returns what went wrong (a value of their parameters that does not parse).
std::vector<std::string> McaCore::open_on_first_use(Framework &fw) {
    std::lock_guard lock(first_use_lock_);
    if (fw.opened || !options_.open_components) return {};
    fw.opened = true;
    const size_t known_errors = params_->errors().size();
    add_loaded(repository_->load_deferred(
        [&](const std::string &f, const std::string &n) { return f == fw.name() && fw.list.admits(n); }));
    refresh_members();
    for (ComponentRecord *c : fw.members) open_one(*c, fw);
    open_all_for_diagnosis(fw);
    return {params_->errors().begin() + static_cast<long>(known_errors), params_->errors().end()};
}

void McaCore::open_one(ComponentRecord &c, const Framework &fw) {
    if (c.state != ComponentRecord::State::Loaded) return;
    if (!fw.list.admits(c.name)) {
        // Never opened: an excluded component must not even probe its device.
        c.unusable_reason = (fw.list.mode == SelectionList::Mode::Exclude ? "excluded by " : "not in ") +
                            fw.name() + "=" + fw.list_text;
        emit(PLEXUS_LOG_DECISION, fw.name(), c.name + ": not opened, " + c.unusable_reason);
        return;
    }
    plexus_reason_t why{};
    int rc = c.desc->open(host_api(), &why);
    if (rc == PLEXUS_SUCCESS) {
        c.state = ComponentRecord::State::Opened;
        c.unusable_reason.clear();
        emit(PLEXUS_LOG_DECISION, fw.name(), c.name + ": opened (" + c.origin + ")");
        return;
    }
    c.state = ComponentRecord::State::Unusable;
    std::string text(why.text, strnlen(why.text, sizeof why.text));
    c.unusable_reason = text.empty() ? "open failed (" + std::to_string(rc) + ")" : text;
    emit(PLEXUS_LOG_DECISION, fw.name(), c.name + ": unusable, " + c.unusable_reason);
}

const Framework *McaCore::framework(std::string_view name) const {
    for (const auto &fw : frameworks_)
        if (fw.name() == name) return &fw;
    return nullptr;
}

Framework *McaCore::mutable_framework(std::string_view name) {
    for (auto &fw : frameworks_)
        if (fw.name() == name) return &fw;
    return nullptr;
}

Selection McaCore::select(std::string_view name, const void *scope) {
    Framework *fw = mutable_framework(name);
    if (!fw) {
        Selection s;
        s.framework = name;
        s.errors.push_back("no framework named '" + std::string(name) + "'; " +
                           unknown_framework_hint(name));
        return s;
    }
    g_current = this;
    std::vector<std::string> first_use = open_on_first_use(*fw);
    Selection s = select_components(*fw, *params_, scope);
    if (fw->spec->open_when == OpenWhen::FirstUse) {
        // Its files were not there to check at init: a requested one that failed to load now.
        for (auto &e : check_selection_list(*fw, *repository_).errors) first_use.push_back(std::move(e));
        s.errors.insert(s.errors.begin(), first_use.begin(), first_use.end());
    }
    for (const auto &e : s.errors) emit(PLEXUS_LOG_ERROR, fw->name(), e);
    for (const auto &d : s.declines) emit(PLEXUS_LOG_DECISION, fw->name(), d);
    return s;
}

runtime::Topology &McaCore::topology() {
    if (!topology_) topology_ = std::make_unique<runtime::Topology>();
    return *topology_;
}

runtime::ProgressEngine &McaCore::progress() { return *progress_; }

const plexus_host_api_t *McaCore::host_api() const { return host_api_table(); }

}  // namespace plexus::mca
