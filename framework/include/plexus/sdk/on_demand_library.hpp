// A system library opened when a feature first needs it, not at every process's start: each
// library linked into libplexus or a plugin is mapped and relocated (and runs its constructors) in
// every rank, 0.5-2.7 M instructions apiece on this project's virtual machines, which a spawn pays
// for every child (docs/dynamic-processes.md). The core opens librdmacm this way for InfiniBand
// multicast, and the core and plugins open libcrypto at their first MAC (sdk/hmac_sha256.hpp).
// configure still requires the library's headers; a process that reaches the feature without the
// library gets a reason naming the feature, the library, the file tried and the loader's words.
// Header-only: the core and each plugin resolve for themselves (dlopen of the same file returns the
// one mapping the process already has).
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace plexus::sdk {

class OnDemandLibrary {
public:
    // soname: what dlopen is given; override_env: a variable naming another file to open instead
    // (nullptr for none; tests point it at a missing file); purpose: what needs the library.
    OnDemandLibrary(const char *soname, const char *override_env, const char *purpose)
        : soname_(soname), override_env_(override_env), purpose_(purpose) {}
    OnDemandLibrary(const OnDemandLibrary &) = delete;
    OnDemandLibrary &operator=(const OnDemandLibrary &) = delete;
    // Never closed: a process keeps what it has opened, as it would a linked library.
    ~OnDemandLibrary() = default;

    // Opens the library on the first call; every call gives the first outcome (false: *why says why).
    bool open(std::string *why = nullptr) {
        std::call_once(once_, [this] { load(); });
        if (!handle_ && why) *why = why_;
        return handle_ != nullptr;
    }

    // *fn = the library's function NAME, opening the library first; false (and *why) if either fails.
    template <class F>
    bool resolve(const char *name, F **fn, std::string *why = nullptr) {
        if (!open(why)) return false;
        void *p = ::dlsym(handle_, name);
        if (!p) {
            if (why) *why = std::string(soname_) + " (" + path_ + ") has no " + name + ", which " + purpose_ + " needs";
            return false;
        }
        *fn = reinterpret_cast<F *>(p);
        return true;
    }

    // The file opened (or tried): the override's value or the soname.
    const std::string &path() const { return path_; }

private:
    void load() {
        const char *over = override_env_ ? std::getenv(override_env_) : nullptr;
        const bool overridden = over && *over;
        path_ = overridden ? over : soname_;
        handle_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle_) return;
        const char *err = ::dlerror();
        why_ = std::string(purpose_) + " needs " + soname_ + ", which cannot be loaded";
        if (overridden) why_ += " from " + path_ + " (set by " + override_env_ + ")";
        why_ += std::string(": ") + (err ? err : "dlopen failed");
        if (!overridden)
            why_ += override_env_ ? " (install it, or point " + std::string(override_env_) + " at it)" : " (install it)";
    }

    const char *soname_;
    const char *override_env_;
    const char *purpose_;
    std::once_flag once_;
    std::string path_;
    std::string why_;
    void *handle_ = nullptr;
};

}  // namespace plexus::sdk
