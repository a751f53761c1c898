// Chooses a loader backend by name (the value of mca_base_loader), and the helpers the backends
// share for reporting the dynamic linker's errors.
#include "plexus_config.h"

#include "loader.h"
#include "loader_backends.h"

namespace plexus::mca {

namespace detail {

std::string file_path_for_dlopen(const std::string &path) {
    return path.find('/') == std::string::npos ? "./" + path : path;
}

std::string linker_error_text(const std::string &file, const char *dlerror_text) {
    if (!dlerror_text || !*dlerror_text) return "the dynamic linker failed without saying why";
    std::string text = dlerror_text;
    const std::string prefix = file + ": ";
    if (text.size() > prefix.size() && text.compare(0, prefix.size(), prefix) == 0)
        text.erase(0, prefix.size());
    return text;
}

void set_error(std::string *error, std::string text) {
    if (error) *error = std::move(text);
}

}  // namespace detail

std::vector<std::string> loader_names() {
    std::vector<std::string> names{"ltdl"};
#ifdef PLEXUS_HAVE_BOOST_DLL
    names.emplace_back("boost");
#endif
    return names;
}

std::unique_ptr<Loader> make_loader(std::string_view name) {
    if (name == "ltdl") return detail::make_ltdl_loader();
#ifdef PLEXUS_HAVE_BOOST_DLL
    if (name == "boost") return detail::make_boost_loader();
#endif
    return nullptr;
}

}  // namespace plexus::mca
