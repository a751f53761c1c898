// Upcall tracing on stderr.
#include "trace.h"

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plexrun {
namespace {
const auto g_start = std::chrono::steady_clock::now();  // times are from plexrun's start
}

bool tracing() {
    static const bool on = [] {
        const char *v = std::getenv("PLEXRUN_TRACE");
        return v && *v && std::strcmp(v, "0") != 0;
    }();
    return on;
}

void trace(const char *format, ...) {
    if (!tracing()) return;
    char line[1024];
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    static const bool origin_said = [] {
        // steady_clock is CLOCK_MONOTONIC here, as the MPI processes' timelines print it.
        const double origin =
            std::chrono::duration<double, std::milli>(g_start.time_since_epoch()).count();
        std::fprintf(stderr, "plexrun[trace]: %8.2f ms is CLOCK_MONOTONIC %.3f ms\n", 0.0, origin);
        return true;
    }();
    (void)origin_said;
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_start)
            .count();
    std::fprintf(stderr, "plexrun[trace]: %8.2f ms %s\n", ms, line);  // one call: one whole line
}

}  // namespace plexrun
