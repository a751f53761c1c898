// Atomic access to words that live in shared memory (plain integers in a mapped segment that
// several processes read and write), so the layout stays plain data. Header-only: the data path of
// a shared-memory component inlines it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plexus::sdk {

// GCC's and Clang's __atomic builtins on the plain word: the same instructions std::atomic_ref
// gives in C++20, and usable from the C++17 the SDK promises.
template <class T>
inline T load_acquire(T &word) {
    return __atomic_load_n(&word, __ATOMIC_ACQUIRE);
}

template <class T>
inline T load_relaxed(T &word) {
    return __atomic_load_n(&word, __ATOMIC_RELAXED);
}

template <class T>
inline void store_release(T &word, T value) {
    __atomic_store_n(&word, value, __ATOMIC_RELEASE);
}

template <class T>
inline void store_relaxed(T &word, T value) {
    __atomic_store_n(&word, value, __ATOMIC_RELAXED);
}

// Weak compare-and-swap, relaxed: true when word held *expected and now holds desired; otherwise
// *expected gets what word holds.
template <class T>
inline bool cas_weak_relaxed(T &word, T *expected, T desired) {
    return __atomic_compare_exchange_n(&word, expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

template <class T>
inline T fetch_add_acq_rel(T &word, T n) {
    return __atomic_fetch_add(&word, n, __ATOMIC_ACQ_REL);
}

constexpr size_t kCacheLine = 64;

constexpr uint64_t align_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

constexpr bool is_power_of_two(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace plexus::sdk
