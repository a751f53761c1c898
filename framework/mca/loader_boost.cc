// The Boost.DLL backend of Loader (mca_base_loader=boost), built when configure finds Boost.DLL.
// Same contract as the ltdl backend: strict binding, local symbols, the dynamic linker's own words.
#include <dlfcn.h>

#include <boost/dll/shared_library.hpp>

#include <exception>
#include <string_view>

#include "loader_backends.h"

namespace plexus::mca::detail {
namespace {

namespace dll = boost::dll;

class BoostObject final : public LoadedObject {
public:
    explicit BoostObject(dll::shared_library library) : library_(std::move(library)) {}

    const void *symbol(const std::string &name) const override {
        try {
            // has() first: get() reports a missing symbol by throwing, and a miss is not an error.
            return library_.has(name) ? &library_.get<const unsigned char>(name) : nullptr;
        } catch (...) {
            return nullptr;
        }
    }

private:
    dll::shared_library library_;  // unloads in its destructor
};

// Boost.DLL's error codes are misleading ("Bad file descriptor" for a missing file); the dlerror
// text it embeds in the exception message is the real cause:
//   "boost::dll::shared_library::load() failed (dlerror system message: <text>): <error code>"
std::string linker_text_from(const std::string &file, const char *what) {
    constexpr std::string_view marker = "(dlerror system message: ";
    const std::string_view message = what ? what : "";
    const size_t start = message.find(marker);
    const size_t end = message.rfind(')');
    if (start == std::string_view::npos || end == std::string_view::npos || end < start)
        return std::string(message.empty() ? "Boost.DLL failed without saying why" : message);
    const size_t text_start = start + marker.size();
    return linker_error_text(file,
                             std::string(message.substr(text_start, end - text_start)).c_str());
}

// Boost.DLL opens the main program instead when the path is the executable itself (after dlopen has
// refused it); a component never is, and the ltdl backend refuses it too.
bool is_main_program(const dll::shared_library &library) {
    void *self = dlopen(nullptr, RTLD_LAZY);
    const bool same = self && self == library.native();
    if (self) dlclose(self);
    return same;
}

class BoostLoader final : public Loader {
public:
    const char *name() const override { return "boost"; }

    // No append_decorations: it would look for "lib"-prefixed names, and components have none.
    std::unique_ptr<LoadedObject> open(const std::string &path, std::string *error) override {
        if (path.empty()) {
            set_error(error, "empty path");
            return nullptr;
        }
        const std::string file = file_path_for_dlopen(path);
        try {
            dll::shared_library library(file,
                                        dll::load_mode::rtld_now | dll::load_mode::rtld_local);
            if (!is_main_program(library)) return std::make_unique<BoostObject>(std::move(library));
            set_error(error, "the file is the running program, not a component");
        } catch (const std::exception &e) {
            set_error(error, linker_text_from(file, e.what()));
        } catch (...) {
            set_error(error, "unknown exception while loading " + path);
        }
        return nullptr;
    }
};

}  // namespace

std::unique_ptr<Loader> make_boost_loader() { return std::make_unique<BoostLoader>(); }

}  // namespace plexus::mca::detail
