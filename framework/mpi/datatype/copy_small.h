// Copying a run of bytes whose length is known only at run time, without a library call for the
// short runs that indexed types are made of: a libc memcpy call costs more than moving 8..64
// bytes. Lengths up to 64 are moved by two fixed-width copies (the first and the last bytes of
// the run, which may overlap: every byte written is a byte of the run, with its own value),
// longer ones by memcpy (measured: libc's wide-vector copy beats inline 16-byte steps there).
// Source and destination must not overlap.
#pragma once

#include <cstddef>
#include <cstring>

namespace plexus::mpi {

// N bytes: memcpy of a constant size is a load and a store of that width.
template <size_t N>
inline void copy_fixed(char *dst, const char *src) {
    std::memcpy(dst, src, N);
}

// A run of n bytes, W <= n <= 2 * W: its first and its last W bytes.
template <size_t W>
inline void copy_two(char *dst, const char *src, size_t n) {
    char head[W], tail[W];
    std::memcpy(head, src, W);
    std::memcpy(tail, src + n - W, W);
    std::memcpy(dst, head, W);
    std::memcpy(dst + n - W, tail, W);
}

inline void copy_run(char *dst, const char *src, size_t n) {
    if (n <= 16) {
        if (n >= 8) return copy_two<8>(dst, src, n);
        if (n >= 4) return copy_two<4>(dst, src, n);
        if (n >= 2) return copy_two<2>(dst, src, n);
        if (n) *dst = *src;
        return;
    }
    if (n <= 32) return copy_two<16>(dst, src, n);
    if (n <= 64) return copy_two<32>(dst, src, n);
    std::memcpy(dst, src, n);
}

}  // namespace plexus::mpi
