// Moving items between their memory layout and the packed form that travels: contiguous types
// are one memcpy; every other type runs its loop program (datatype/loop.h).
#include <cstring>
#include <map>
#include <mutex>

#include "mpi/datatype.h"
#include "mpi/datatype/derived_type.h"
#include "mpi/datatype/loop_build.h"

namespace plexus::mpi {
namespace {

// The programs of the predefined types with holes (MPI_DOUBLE_INT ...), built on first use.
const LoopProgram &program_of(const Datatype &t) {
    if (t.derived) return *t.derived->program;
    static std::mutex lock;
    static std::map<const Datatype *, LoopProgram> programs;
    std::lock_guard<std::mutex> guard(lock);
    auto it = programs.find(&t);
    if (it == programs.end()) it = programs.emplace(&t, build_program(t)).first;
    return it->second;
}

const char *address(const void *base, ptrdiff_t disp) {
    return reinterpret_cast<const char *>(reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(disp));
}

}  // namespace

void pack_range(const Datatype &t, const void *buf, size_t /*count*/, size_t offset, size_t n, void *dst) {
    if (n == 0) return;
    if (t.contiguous) {
        std::memcpy(dst, address(buf, t.lb) + offset, n);
        return;
    }
    loop_pack(program_of(t), static_cast<const char *>(buf), t.extent, offset, n, static_cast<char *>(dst));
}

void unpack_range(const Datatype &t, void *buf, size_t /*count*/, size_t offset, size_t n, const void *src) {
    if (n == 0) return;
    if (t.contiguous) {
        std::memcpy(const_cast<char *>(address(buf, t.lb)) + offset, src, n);
        return;
    }
    loop_unpack(program_of(t), static_cast<char *>(buf), t.extent, offset, n, static_cast<const char *>(src));
}

void pack(const Datatype &t, const void *src, int count, void *dst) {
    pack_range(t, src, size_t(count), 0, packed_bytes(&t, count), dst);
}

void unpack(const Datatype &t, const void *src, size_t bytes, void *dst) {
    // As many items as the bytes reach into; the last may be partial.
    const size_t items = t.size ? (bytes + t.size - 1) / t.size : 0;
    unpack_range(t, dst, items, 0, bytes, src);
}

}  // namespace plexus::mpi
