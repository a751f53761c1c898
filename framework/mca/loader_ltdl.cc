// The libltdl backend of Loader (mca_base_loader=ltdl, the default): libltdl owns the handle
// symbols are found through; a plain dlopen beside it makes loading strict and explains failures.
#include <dlfcn.h>
#include <ltdl.h>

#include <exception>
#include <mutex>
#include <type_traits>

#include "loader_backends.h"

namespace plexus::mca::detail {
namespace {

// libltdl keeps process-wide state (its init count, its handle list, the last error) and does no
// locking of its own, so every ltdl call in this file happens under this mutex.
std::mutex &ltdl_mutex() {
    static std::mutex m;
    return m;
}

// Call with ltdl_mutex held: lt_dlerror() reads and clears shared state.
std::string take_ltdl_error() {
    const char *text = lt_dlerror();
    return text ? text : "libltdl failed without saying why";
}

// One lt_dlinit/lt_dlexit pair. libltdl counts the pairs itself, and lt_dlexit closes every handle
// still open, so the loader and each object it opened share one session; the last one ends it.
class LtdlSession {
public:
    LtdlSession() {
        std::lock_guard lock(ltdl_mutex());
        if (lt_dlinit() != 0) init_error_ = take_ltdl_error();
    }
    ~LtdlSession() {
        std::lock_guard lock(ltdl_mutex());
        lt_dlexit();  // also after a failed lt_dlinit, which counts itself anyway
    }
    LtdlSession(const LtdlSession &) = delete;
    LtdlSession &operator=(const LtdlSession &) = delete;

    const std::string &init_error() const { return init_error_; }

private:
    std::string init_error_;
};

struct DlClose {
    void operator()(void *handle) const { dlclose(handle); }
};
using DlHandle = std::unique_ptr<void, DlClose>;

struct LtdlClose {
    void operator()(lt_dlhandle handle) const {
        std::lock_guard lock(ltdl_mutex());
        lt_dlclose(handle);
    }
};
using LtdlHandle = std::unique_ptr<std::remove_pointer_t<lt_dlhandle>, LtdlClose>;

struct AdviseDestroy {
    void operator()(lt_dladvise advise) const { lt_dladvise_destroy(&advise); }
};
using Advise = std::unique_ptr<std::remove_pointer_t<lt_dladvise>, AdviseDestroy>;

class LtdlObject final : public LoadedObject {
public:
    LtdlObject(std::shared_ptr<LtdlSession> session, DlHandle strict, LtdlHandle handle)
        : session_(std::move(session)), strict_(std::move(strict)), handle_(std::move(handle)) {}

    const void *symbol(const std::string &name) const override {
        std::lock_guard lock(ltdl_mutex());
        const void *address = lt_dlsym(handle_.get(), name.c_str());
        // A miss is an answer, not an error: leave no stale lt_dlerror() for the next caller.
        if (!address) lt_dlerror();
        return address;
    }

private:
    // Members are destroyed bottom-up: the ltdl handle, then the strict one, then the session.
    std::shared_ptr<LtdlSession> session_;
    DlHandle strict_;
    LtdlHandle handle_;
};

// Local binding, so that nothing the component exports leaks into the global namespace. No
// lt_dladvise_ext: it would let libltdl open "x.la" or "x.so" for a path "x", a different file than
// the one the strict dlopen checked.
LtdlHandle ltdl_open_local(const std::string &file, std::string *error) {
    std::lock_guard lock(ltdl_mutex());
    lt_dladvise raw = nullptr;
    if (lt_dladvise_init(&raw) != 0) {
        set_error(error, take_ltdl_error());
        return nullptr;
    }
    Advise advise(raw);
    if (lt_dladvise_local(&raw) != 0) {
        set_error(error, take_ltdl_error());
        return nullptr;
    }
    LtdlHandle handle(lt_dlopenadvise(file.c_str(), raw));
    if (!handle) set_error(error, take_ltdl_error());
    return handle;
}

class LtdlLoader final : public Loader {
public:
    const char *name() const override { return "ltdl"; }

    std::unique_ptr<LoadedObject> open(const std::string &path, std::string *error) override {
        try {
            return open_strict(path, error);
        } catch (const std::exception &e) {
            set_error(error, e.what());
        } catch (...) {
            set_error(error, "unknown exception while loading " + path);
        }
        return nullptr;
    }

private:
    // Why two opens of the same file: libltdl binds lazily (RTLD_LAZY), so a component calling a
    // function nobody defines would load fine and kill the process at that call; and when a load
    // does fail, lt_dlerror() says "file not found" whatever the cause. The first, plain
    // dlopen(RTLD_NOW|RTLD_LOCAL) binds every symbol now and keeps the dynamic linker's own words
    // ("undefined symbol: x"). The ltdl open after it finds the object already mapped and bound,
    // and only adds a reference. Both handles live as long as the object.
    std::unique_ptr<LoadedObject> open_strict(const std::string &path, std::string *error) {
        if (path.empty()) {
            set_error(error, "empty path");
            return nullptr;
        }
        if (!session_->init_error().empty()) {
            set_error(error, "libltdl failed to initialise: " + session_->init_error());
            return nullptr;
        }
        const std::string file = file_path_for_dlopen(path);
        DlHandle strict(dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL));
        if (!strict) {
            set_error(error, linker_error_text(file, dlerror()));
            return nullptr;
        }
        LtdlHandle handle = ltdl_open_local(file, error);
        if (!handle) return nullptr;
        return std::make_unique<LtdlObject>(session_, std::move(strict), std::move(handle));
    }

    std::shared_ptr<LtdlSession> session_ = std::make_shared<LtdlSession>();
};

}  // namespace

std::unique_ptr<Loader> make_ltdl_loader() { return std::make_unique<LtdlLoader>(); }

}  // namespace plexus::mca::detail
