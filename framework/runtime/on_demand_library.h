// A system library opened when a feature first needs it, not at every process's start: each
// library linked into libplexus is mapped and relocated (and runs its constructors) in every
// rank, about 0.5-1.5 ms of page faults apiece on this project's virtual machines, which a spawn
// pays for every child (bench/dpm README, "Where a spawn cycle's time goes"). librdmacm (with
// libnl-3 and libnl-route-3 behind it) serves only InfiniBand multicast. configure still
// requires the library and its headers; a process that reaches the feature without it gets an
// error naming the library, the path tried and the loader's reason.
// Header-only so that its users need no build-system change.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "runtime/status.h"

namespace plexus::runtime {

class OnDemandLibrary {
public:
    // soname: what dlopen is given; override_env: a variable naming another file to open instead
    // (a path; tests set a missing one); purpose: what needs the library, for the error message.
    OnDemandLibrary(const char *soname, const char *override_env, const char *purpose)
        : soname_(soname), override_env_(override_env), purpose_(purpose) {}
    OnDemandLibrary(const OnDemandLibrary &) = delete;
    OnDemandLibrary &operator=(const OnDemandLibrary &) = delete;
    // Never closed: a process keeps what it has opened, as it would a linked library.
    ~OnDemandLibrary() = default;

    // Opens the library on the first call; every later call returns the first outcome.
    Status open() {
        std::call_once(once_, [this] { opened_ = load(); });
        return opened_;
    }

    // *fn = the library's NAME, opening the library first.
    template <class F>
    Status resolve(const char *name, F **fn) {
        if (Status s = open(); !s) return s;
        void *p = ::dlsym(handle_, name);
        if (!p)
            return Status::error(PLEXUS_ERR_NOT_AVAILABLE, std::string(soname_) + " (" + path_ +
                                                               ") has no " + name + ", which " +
                                                               purpose_ + " needs");
        *fn = reinterpret_cast<F *>(p);
        return Status::ok();
    }

private:
    Status load() {
        const char *over = override_env_ ? std::getenv(override_env_) : nullptr;
        path_ = over && *over ? over : soname_;
        handle_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle_) return Status::ok();
        const char *why = ::dlerror();
        std::string text = std::string(purpose_) + " needs " + soname_ + ", which cannot be loaded";
        if (path_ != soname_) text += std::string(" from ") + path_ + " (set by " + override_env_ + ")";
        text += std::string(": ") + (why ? why : "dlopen failed");
        if (path_ == soname_)
            text += override_env_ ? " (install it, or point " + std::string(override_env_) + " at it)" : " (install it)";
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, text);
    }

    const char *soname_;
    const char *override_env_;
    const char *purpose_;
    std::once_flag once_;
    Status opened_;
    std::string path_;
    void *handle_ = nullptr;
};

}  // namespace plexus::runtime
