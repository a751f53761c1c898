// Typed local copies: straight memmove between contiguous layouts, one pack or unpack when one
// side is contiguous, and a bounded staging buffer walked with the byte-range cursor otherwise
// (so a copy of gigabytes never allocates more than kStage bytes).
#include "mpi/datatype/typed_copy.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

namespace plexus::mpi {
namespace {

constexpr size_t kStage = 64 * 1024;

}  // namespace

int typed_copy(const void *src, int src_count, const Datatype &src_type, void *dst, int dst_count,
               const Datatype &dst_type) {
    const size_t sent = packed_bytes(&src_type, src_count);
    const size_t room = packed_bytes(&dst_type, dst_count);
    const size_t n = std::min(sent, room);
    if (n > 0) {
        if (src_type.contiguous && dst_type.contiguous) {
            std::memmove(data_start(dst, dst_type), data_start(src, src_type), n);
        } else if (src_type.contiguous) {
            unpack_range(dst_type, dst, static_cast<size_t>(dst_count), 0, n, data_start(src, src_type));
        } else if (dst_type.contiguous) {
            pack_range(src_type, src, static_cast<size_t>(src_count), 0, n, data_start(dst, dst_type));
        } else {
            const size_t stage_bytes = std::min(n, kStage);
            std::unique_ptr<unsigned char[]> stage(new (std::nothrow) unsigned char[stage_bytes]);
            if (!stage) return MPI_ERR_NO_MEM;
            for (size_t off = 0; off < n; off += stage_bytes) {
                const size_t len = std::min(stage_bytes, n - off);
                pack_range(src_type, src, static_cast<size_t>(src_count), off, len, stage.get());
                unpack_range(dst_type, dst, static_cast<size_t>(dst_count), off, len, stage.get());
            }
        }
    }
    return sent > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

}  // namespace plexus::mpi
