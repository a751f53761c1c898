#include "component_repository.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "descriptor_check.h"
#include "framework_table.h"

namespace plexus::mca {
namespace {

constexpr std::string_view kPrefix = "plexus_";
constexpr std::string_view kSuffix = ".so";

std::vector<std::string> plugin_files(const std::string &folder) {
    std::vector<std::string> files;
    std::unique_ptr<DIR, int (*)(DIR *)> dir(opendir(folder.c_str()), closedir);
    if (!dir) return files;
    while (dirent *entry = readdir(dir.get())) {
        std::string_view n = entry->d_name;
        if (n.size() > kPrefix.size() + kSuffix.size() && n.substr(0, kPrefix.size()) == kPrefix &&
            n.substr(n.size() - kSuffix.size()) == kSuffix)
            files.emplace_back(n);
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string symbol_for(const std::string &framework, const std::string &name) {
    return "plexus_" + framework + "_" + name + "_component";
}

// The loader's text is precise but terse; a hint says what usually causes it.
std::string hint_for_load_error(const std::string &cause) {
    if (cause.find("undefined symbol") != std::string::npos)
        return "the component needs a symbol nothing provides: it was built against another "
               "version of a library it uses, or links against Plexus internals; rebuild it "
               "against this Plexus's SDK (pkg-config plexus-component)";
    if (cause.find("cannot open shared object file") != std::string::npos)
        return "a library the component depends on is not installed (check ldd on the file)";
    if (cause.find("ELF") != std::string::npos || cause.find("too short") != std::string::npos)
        return "the file is not a shared object for this machine; remove it from the plugin folder";
    return "remove the file or rebuild the component";
}

}  // namespace

std::string ComponentRecord::version() const {
    return std::to_string(desc->version_major) + "." + std::to_string(desc->version_minor) + "." +
           std::to_string(desc->version_release);
}

bool parse_component_file_name(std::string_view file, std::string *framework, std::string *name) {
    if (file.size() <= kPrefix.size() + kSuffix.size() || file.substr(0, kPrefix.size()) != kPrefix ||
        file.substr(file.size() - kSuffix.size()) != kSuffix)
        return false;
    std::string_view stem = file.substr(kPrefix.size(), file.size() - kPrefix.size() - kSuffix.size());
    for (const auto &spec : framework_table()) {
        std::string_view f = spec.name;
        if (stem.size() > f.size() + 1 && stem.substr(0, f.size()) == f && stem[f.size()] == '_') {
            *framework = f;
            *name = stem.substr(f.size() + 1);
            return true;
        }
    }
    return false;
}

ComponentRepository::ComponentRepository(Loader &loader, std::vector<std::string> folders,
                                         const plexus_component_t *const *static_table)
    : loader_(loader), folders_(std::move(folders)), static_table_(static_table) {}

void ComponentRepository::scan(const LoadNow &load_now) {
    for (auto p = static_table_; p && *p; ++p) add_static(*p);
    for (const auto &folder : folders_) scan_folder(folder, load_now);
}

std::vector<ComponentRecord *> ComponentRepository::load_deferred(const LoadNow &want) {
    std::vector<ComponentRecord *> added;
    std::vector<DeferredFile> still;
    for (auto &d : deferred_) {
        if (want && !want(d.framework, d.name)) {
            still.push_back(std::move(d));
            continue;
        }
        if (ComponentRecord *c = load_file(d.path, d.framework, d.name)) added.push_back(c);
    }
    deferred_ = std::move(still);
    return added;
}

void ComponentRepository::add_static(const plexus_component_t *desc) {
    if (auto problem = check_descriptor(desc, {}, {})) {
        failures_.push_back({"(static)", "", "", problem->cause, problem->hint});
        return;
    }
    auto record = std::make_unique<ComponentRecord>();
    record->desc = desc;
    record->framework = desc->framework;
    record->name = desc->name;
    record->origin = "static (linked into libplexus)";
    components_.push_back(std::move(record));
}

void ComponentRepository::scan_folder(const std::string &folder, const LoadNow &load_now) {
    for (const auto &file : plugin_files(folder)) {
        std::string path = folder + "/" + file, framework, name;
        if (!parse_component_file_name(file, &framework, &name)) {
            std::string fw = file.substr(kPrefix.size(), file.find('_', kPrefix.size()) - kPrefix.size());
            failures_.push_back({path, "", "", "file name names no known framework ('" + fw + "')",
                                 "component files are named plexus_<" + framework_name_list("|") +
                                     ">_<name>.so; " + unknown_framework_hint(fw)});
            continue;
        }
        if (already_have(path, framework, name)) continue;
        if (load_now && !load_now(framework, name))
            deferred_.push_back({path, framework, name});
        else
            load_file(path, framework, name);
    }
}

bool ComponentRepository::already_have(const std::string &path, const std::string &framework,
                                       const std::string &name) {
    const ComponentRecord *earlier = find(framework, name);
    const DeferredFile *noted = deferred_for(framework, name);
    if (!earlier && !noted) return false;
    failures_.push_back({path, framework, name,
                         "duplicate: " + framework + "_" + name + " was already found in " +
                             (earlier ? earlier->origin : noted->path) + "; this file is ignored",
                         "remove one of the two, or reorder mca_base_component_path"});
    return true;
}

ComponentRecord *ComponentRepository::load_file(const std::string &path, const std::string &framework,
                                                const std::string &name) {
    std::string error;
    auto object = loader_.open(path, &error);
    if (!object) {
        failures_.push_back({path, framework, name, error, hint_for_load_error(error)});
        return nullptr;
    }
    std::string symbol = symbol_for(framework, name);
    auto desc = static_cast<const plexus_component_t *>(object->symbol(symbol));
    if (!desc) {
        failures_.push_back({path, framework, name, "the file does not export " + symbol,
                             "a component exports exactly one descriptor, named after its file"});
        return nullptr;
    }
    if (auto problem = check_descriptor(desc, framework, name)) {
        failures_.push_back({path, framework, name, problem->cause, problem->hint});
        return nullptr;
    }
    auto record = std::make_unique<ComponentRecord>();
    record->desc = desc;
    record->framework = framework;
    record->name = name;
    record->origin = path;
    record->object = std::move(object);
    components_.push_back(std::move(record));
    return components_.back().get();
}

std::vector<ComponentRecord *> ComponentRepository::in_framework(std::string_view framework) const {
    std::vector<ComponentRecord *> out;
    for (const auto &c : components_)
        if (c->framework == framework) out.push_back(c.get());
    std::sort(out.begin(), out.end(), [](auto a, auto b) { return a->name < b->name; });
    return out;
}

ComponentRecord *ComponentRepository::find(std::string_view framework, std::string_view name) const {
    for (const auto &c : components_)
        if (c->framework == framework && c->name == name) return c.get();
    return nullptr;
}

ComponentRecord *ComponentRepository::find(const plexus_component_t *desc) const {
    for (const auto &c : components_)
        if (c->desc == desc) return c.get();
    return nullptr;
}

const LoadFailure *ComponentRepository::failure_for(std::string_view framework,
                                                    std::string_view name) const {
    for (const auto &f : failures_)
        if (f.framework == framework && f.name == name) return &f;
    return nullptr;
}

const DeferredFile *ComponentRepository::deferred_for(std::string_view framework,
                                                     std::string_view name) const {
    for (const auto &d : deferred_)
        if (d.framework == framework && d.name == name) return &d;
    return nullptr;
}

}  // namespace plexus::mca
