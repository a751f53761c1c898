// Trace lines of a protocol that spans processes (a meeting between two jobs, a spawn), stamped
// with the monotonic clock in milliseconds and the process's name: the lines of every process,
// merged and sorted, read as one timeline. Shown at PLEXUS_LOG_DETAIL of the component's
// <framework>_base_verbose; below it nothing is formatted.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <ctime>

#include <plexus/sdk/host.hpp>

namespace plexus::sdk {

inline bool timeline_wanted(const plexus_host_api_t *host, const plexus_component_t *self) noexcept {
    return PLEXUS_HOST_HAS(host, log) && PLEXUS_HOST_HAS(host, verbosity) &&
           host->verbosity(self) >= PLEXUS_LOG_DETAIL;
}

// "[<ms> ms] <nspace>:<rank> <what>".
inline void log_timeline(const plexus_host_api_t *host, const plexus_component_t *self, const char *nspace,
                         unsigned rank, const char *fmt, va_list ap) noexcept {
    if (!timeline_wanted(host, self)) return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char what[256];
    std::vsnprintf(what, sizeof what, fmt, ap);
    host->log(self, PLEXUS_LOG_DETAIL, "[%.3f ms] %s:%u %s", ts.tv_sec * 1e3 + ts.tv_nsec / 1e6, nspace, rank,
              what);
}

}  // namespace plexus::sdk
