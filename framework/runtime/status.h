// The outcome of a runtime call: a PLEXUS_* status and, when it failed, what failed in words a
// user can act on (the PMIx call, the key or peer, and PMIx's own description of the error).
#pragma once

#include <string>
#include <utility>

#include <plexus/status.h>

namespace plexus::runtime {

struct Status {
    int code = PLEXUS_SUCCESS;
    std::string message;  // empty on success

    static Status ok() { return {}; }
    static Status error(int code, std::string message) { return {code, std::move(message)}; }
    bool is_ok() const { return code == PLEXUS_SUCCESS; }
    explicit operator bool() const { return is_ok(); }
};

}  // namespace plexus::runtime
