// Atomic access to words that live in shared memory (plain integers in a mapped segment that
// several processes read and write), through std::atomic_ref so the layout stays plain data.
// Header-only: the data path of a shared-memory component inlines it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace plexus::sdk {

template <class T>
inline T load_acquire(T &word) {
    return std::atomic_ref<T>(word).load(std::memory_order_acquire);
}

template <class T>
inline T load_relaxed(T &word) {
    return std::atomic_ref<T>(word).load(std::memory_order_relaxed);
}

template <class T>
inline void store_release(T &word, T value) {
    std::atomic_ref<T>(word).store(value, std::memory_order_release);
}

template <class T>
inline void store_relaxed(T &word, T value) {
    std::atomic_ref<T>(word).store(value, std::memory_order_relaxed);
}

constexpr size_t kCacheLine = 64;

constexpr uint64_t align_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

constexpr bool is_power_of_two(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace plexus::sdk
