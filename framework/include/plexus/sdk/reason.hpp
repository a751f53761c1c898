// The answers of open() and query(): a reason the user can act on, an offer, and the guard that
// keeps C++ exceptions from crossing the C boundary.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <exception>
#include <new>

#include <plexus/component.h>

namespace plexus::sdk {

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void set_reason(plexus_reason_t *why, const char *fmt, ...) noexcept {
    if (!why) return;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(why->text, sizeof why->text, fmt, ap);
    va_end(ap);
}

// query() declining a scope: the reason goes into result->why.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline int decline(plexus_query_result_t *result, const char *fmt, ...) noexcept {
    if (!result) return PLEXUS_ERR_NOT_AVAILABLE;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(result->why.text, sizeof result->why.text, fmt, ap);
    va_end(ap);
    return PLEXUS_ERR_NOT_AVAILABLE;
}

// query() serving a scope with module at priority.
inline int offer(plexus_query_result_t *result, int priority, void *module) noexcept {
    if (!result) return PLEXUS_ERR_BAD_PARAM;
    result->priority = priority;
    result->module = module;
    return PLEXUS_SUCCESS;
}

// Runs body (returning a PLEXUS_* code); an exception becomes an error code with its reason in
// why (may be NULL), since the caller is C and cannot catch it.
template <class Body>
int guarded(plexus_reason_t *why, Body &&body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc &) {
        set_reason(why, "out of memory");
        return PLEXUS_ERR_OUT_OF_RESOURCE;
    } catch (const std::exception &e) {
        set_reason(why, "%s", e.what());
        return PLEXUS_ERROR;
    } catch (...) {
        set_reason(why, "unknown exception");
        return PLEXUS_ERROR;
    }
}

}  // namespace plexus::sdk
