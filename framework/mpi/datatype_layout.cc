// Moving items between their memory layout and the packed form that travels, and counting what
// a received number of bytes holds (MPI_Get_count, MPI_Get_elements).
#include <cstring>

#include "mpi/datatype.h"

namespace plexus::mpi {

void pack(const Datatype &t, const void *src, int count, void *dst) {
    const char *in = static_cast<const char *>(src) + t.lb;
    char *out = static_cast<char *>(dst);
    for (int i = 0; i < count; ++i, in += t.extent)
        for (int b = 0; b < t.nblocks; ++b) {
            std::memcpy(out, in + t.blocks[b].offset, t.blocks[b].length);
            out += t.blocks[b].length;
        }
}

void unpack(const Datatype &t, const void *src, size_t bytes, void *dst) {
    const char *in = static_cast<const char *>(src);
    char *out = static_cast<char *>(dst) + t.lb;
    for (; bytes > 0; out += t.extent)
        for (int b = 0; b < t.nblocks && bytes > 0; ++b) {
            const size_t n = t.blocks[b].length < bytes ? t.blocks[b].length : bytes;
            std::memcpy(out + t.blocks[b].offset, in, n);
            in += n;
            bytes -= n;
        }
}

int count_of(const Datatype &t, size_t bytes) {
    if (t.size == 0) return 0;
    return bytes % t.size == 0 ? static_cast<int>(bytes / t.size) : MPI_UNDEFINED;
}

int elements_of(const Datatype &t, size_t bytes) {
    if (t.size == 0) return 0;
    size_t elements = bytes / t.size * static_cast<size_t>(t.nblocks);
    size_t rest = bytes % t.size;
    for (int b = 0; b < t.nblocks && rest >= t.blocks[b].length && rest > 0; ++b) {
        rest -= t.blocks[b].length;
        ++elements;
    }
    return rest == 0 ? static_cast<int>(elements) : MPI_UNDEFINED;
}

}  // namespace plexus::mpi
