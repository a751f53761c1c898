// op_apply: one kernel call on the operands as they lie when they are arrays of the basic type,
// otherwise the kernel on packed copies, a chunk at a time (pack_range / unpack_range), so that
// the extra memory is bounded and stays in cache.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "mpi/op/op.h"
#include "mpi/op/op_kernels.h"

namespace plexus::mpi {
namespace {

// Packed bytes per chunk of the non-contiguous paths.
constexpr size_t kChunkBytes = 32 * 1024;

// Addresses are computed on integers: buf may be MPI_BOTTOM with absolute displacements.
inline uintptr_t at(const void *buf, ptrdiff_t lb) { return reinterpret_cast<uintptr_t>(buf) + lb; }

// A buffer of max_align_t, so that every basic type (long double, complex) may live in it.
using Scratch = std::unique_ptr<std::max_align_t[]>;
inline Scratch scratch(size_t bytes) {
    return Scratch(new (std::nothrow) std::max_align_t[(bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)]);
}

// MPI_REPLACE: inout takes the data of in, item by item through the type map.
int replace(const void *in, void *inout, int count, const Datatype &type) {
    const size_t total = packed_bytes(&type, count);
    if (type.contiguous) {
        std::memmove(reinterpret_cast<void *>(at(inout, type.lb)), reinterpret_cast<const void *>(at(in, type.lb)), total);
        return MPI_SUCCESS;
    }
    const size_t chunk = std::min(total, kChunkBytes);
    Scratch buf = scratch(chunk);
    if (!buf) return MPI_ERR_NO_MEM;
    for (size_t off = 0; off < total; off += chunk) {
        const size_t len = std::min(chunk, total - off);
        pack_range(type, in, count, off, len, buf.get());
        unpack_range(type, inout, count, off, len, buf.get());
    }
    return MPI_SUCCESS;
}

// Whether p is aligned for the basic type (a contiguous derived type may start anywhere).
inline bool aligned(uintptr_t p, const Datatype &basic) { return p % basic.align == 0; }

// The kernel on packed copies of both operands. A pair type with padding (MPI_DOUBLE_INT) is
// packed without it, so its chunks are laid out again as C structs (unpack with the pair type)
// before the kernel and packed back after.
int through_packed(Kernel k, const void *in, void *inout, int count, const Datatype &type, const Datatype &basic) {
    const size_t total = packed_bytes(&type, count);
    const size_t per_chunk = std::max<size_t>(1, kChunkBytes / static_cast<size_t>(basic.extent));
    const size_t chunk = per_chunk * basic.size;
    const bool relayout = !basic.contiguous;
    const size_t struct_bytes = per_chunk * static_cast<size_t>(basic.extent);
    Scratch a = scratch(struct_bytes), b = scratch(struct_bytes), staging = relayout ? scratch(chunk) : nullptr;
    if (!a || !b || (relayout && !staging)) return MPI_ERR_NO_MEM;
    for (size_t off = 0; off < total; off += chunk) {
        const size_t len = std::min(chunk, total - off);
        const size_t n = len / basic.size;
        if (!relayout) {
            pack_range(type, in, count, off, len, a.get());
            pack_range(type, inout, count, off, len, b.get());
            k(a.get(), b.get(), n);
            unpack_range(type, inout, count, off, len, b.get());
            continue;
        }
        pack_range(type, in, count, off, len, staging.get());
        unpack(basic, staging.get(), len, a.get());
        pack_range(type, inout, count, off, len, staging.get());
        unpack(basic, staging.get(), len, b.get());
        k(a.get(), b.get(), n);
        pack(basic, b.get(), static_cast<int>(n), staging.get());
        unpack_range(type, inout, count, off, len, staging.get());
    }
    return MPI_SUCCESS;
}

}  // namespace

int op_apply(const Op &op, const void *in, void *inout, int count, Datatype *type) {
    if (op.kind == OpKind::User) {
        // The user's function sees the buffers and the handle as the program gave them.
        int len = count;
        MPI_Datatype handle = type;
        if (count > 0) op.user_fn(const_cast<void *>(in), inout, &len, &handle);
        return MPI_SUCCESS;
    }
    if (count <= 0 || type->size == 0) return MPI_SUCCESS;
    if (op.kind == OpKind::Replace) return replace(in, inout, count, *type);

    const Datatype *basic = nullptr;
    size_t per_item = 0;
    BasicClass cls;
    if (!uniform_basic(*type, &basic, &per_item) || !classify_predefined(basic, &cls)) return MPI_ERR_TYPE;
    const Kernel k = op_kernel(op.kind, cls.rep);
    if (!k) return MPI_ERR_OP;
    const size_t n = static_cast<size_t>(count) * per_item;
    if (type->predefined) {
        k(in, inout, n);  // pairs included: the operands are arrays of their C struct
        return MPI_SUCCESS;
    }
    const uintptr_t pin = at(in, type->lb), pinout = at(inout, type->lb);
    if (type->contiguous && basic->contiguous && aligned(pin, *basic) && aligned(pinout, *basic)) {
        k(reinterpret_cast<const void *>(pin), reinterpret_cast<void *>(pinout), n);
        return MPI_SUCCESS;
    }
    return through_packed(k, in, inout, count, *type, *basic);
}

}  // namespace plexus::mpi
