// The services behind plexus_osc_services_t. What a module could get wrong (a rank outside the
// group, a tag outside the osc range, a byte range beyond the data, a datatype description that
// is not one) is refused with an error class instead of reaching the PML, the BTLs or memory.
#include "mpi/osc/osc_services.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "base/output.h"
#include "mpi/bml/bml.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/coll/coll_services.h"
#include "mpi/comm/group.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/dtype_codec.h"
#include "mpi/osc/op_ids.h"
#include "mpi/osc/window.h"
#include "mpi/shareable_memory.h"

namespace plexus::mpi::osc {
namespace {

using coll::object;

bool rank_in(const Win *w, int rank) { return rank >= 0 && rank < w->group_size(); }

// ---- peers
uint32_t proc_of(plexus_osc_win_t *win, int rank) {
    const Win *w = win_object(win);
    return rank_in(w, rank) ? w->comm->local_procs[static_cast<size_t>(rank)] : UINT32_MAX;
}

int rank_of_proc(plexus_osc_win_t *win, uint32_t proc) {
    const int r = plexus::mpi::rank_of(win_object(win)->comm->local_procs, proc);
    return r == MPI_UNDEFINED ? -1 : r;
}

int paths(plexus_osc_win_t *win, int rank, plexus_osc_path_t out[], int max) {
    const Win *w = win_object(win);
    if (!rank_in(w, rank) || !g_mpi) return 0;
    const BmlPeer *peer = g_mpi->pml().bml().peer(w->comm->local_procs[static_cast<size_t>(rank)]);
    if (!peer) return 0;
    const int n = static_cast<int>(peer->paths.size());
    for (int i = 0; i < n && i < max; ++i) out[i] = {peer->paths[static_cast<size_t>(i)].btl, peer->paths[static_cast<size_t>(i)].ep};
    return n;
}

int register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    if (tag < PLEXUS_BTL_TAG_OSC_FIRST || tag > PLEXUS_BTL_TAG_OSC_LAST) return MPI_ERR_TAG;
    if (!g_mpi) return MPI_ERR_INTERN;
    g_mpi->pml().bml().register_recv(tag, fn, ctx);
    return MPI_SUCCESS;
}

// ---- typed data
// [offset, offset + len) within the packed bytes of (count, type)?
int check_range(int count, const Datatype *t, size_t offset, size_t len) {
    if (count < 0 || !datatype_valid(t)) return MPI_ERR_TYPE;
    const size_t total = packed_bytes(t, count);
    return offset <= total && len <= total - offset ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
}

int pack(const void *buf, int count, plexus_coll_dtype_t *type, size_t offset, void *out, size_t len) {
    const Datatype *t = object(type);
    if (int rc = check_range(count, t, offset, len)) return rc;
    pack_range(*t, buf, static_cast<size_t>(count), offset, len, out);
    return MPI_SUCCESS;
}

int unpack(void *buf, int count, plexus_coll_dtype_t *type, size_t offset, const void *in, size_t len) {
    const Datatype *t = object(type);
    if (int rc = check_range(count, t, offset, len)) return rc;
    unpack_range(*t, buf, static_cast<size_t>(count), offset, len, in);
    return MPI_SUCCESS;
}

int encode(plexus_coll_dtype_t *type, void *buf, size_t *len) {
    const Datatype *t = object(type);
    if (!datatype_exists(t) || !len) return MPI_ERR_TYPE;
    std::vector<uint8_t> bytes;
    dtype_encode(*t, &bytes);
    const size_t room = *len;
    *len = bytes.size();
    if (room < bytes.size() || (!buf && !bytes.empty())) return PLEXUS_OSC_ERR_NO_MEM;
    std::memcpy(buf, bytes.data(), bytes.size());
    return MPI_SUCCESS;
}

int decode(const void *buf, size_t len, plexus_coll_dtype_t **type) {
    if (!buf || !type) return MPI_ERR_ARG;
    Datatype *t = dtype_decode(static_cast<const uint8_t *>(buf), len);
    if (!t) return MPI_ERR_TYPE;
    *type = coll::handle(t);
    return MPI_SUCCESS;
}

void release(plexus_coll_dtype_t *type) { dtype_release(object(type)); }

// ---- operations
int op_number(plexus_coll_op_t *op) { return op_id(object(op)); }
plexus_coll_op_t *op_of_number(int id) {
    Op *op = op_by_id(id);
    return op ? coll::handle(op) : nullptr;
}

// ---- memory
void *alloc_mem(size_t size) {
    std::string why;
    return shareable_memory().allocate(size, 1, &why);
}

int free_mem(void *base) {
    std::string why;
    return shareable_memory().release(base, &why) == ShareableMemory::Release::Freed ? MPI_SUCCESS : MPI_ERR_BASE;
}

// The whole range must lie in one allocation: a window that runs past the end of its
// Alloc_mem block is not memory a peer could map as one piece.
int mem_range(const void *addr, size_t len, plexus_osc_mem_range_t *out) {
    if (!out || out->struct_size < sizeof *out) return 0;
    const std::optional<SharedRange> r = shareable_memory().find(addr);
    if (!r || r->bytes < len) return 0;
    out->fd = r->fd;
    out->offset = r->offset;
    out->bytes = r->bytes;
    return 1;
}

// ---- the window
int info_get(plexus_osc_win_t *win, const char *key, char *buf, size_t len) {
    const std::string *v = win_object(win)->info.find(key ? key : "");
    if (!v) return 0;
    if (!buf || len <= v->size()) return -1;
    std::memcpy(buf, v->c_str(), v->size() + 1);
    return 1;
}

void set_error(plexus_osc_win_t *win, const char *fmt, ...) {
    char text[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    win_object(win)->module_error = text;
}

int verbosity() { return mca::framework_verbosity("osc"); }

}  // namespace

const plexus_osc_services_t &services() {
    static const plexus_osc_services_t table = {
        sizeof(plexus_osc_services_t),
        PLEXUS_OSC_SERVICES_MAJOR,
        PLEXUS_OSC_SERVICES_MINOR,
        &coll::services(),
        proc_of,
        rank_of_proc,
        paths,
        register_recv,
        pack,
        unpack,
        encode,
        decode,
        release,
        op_number,
        op_of_number,
        alloc_mem,
        free_mem,
        mem_range,
        info_get,
        set_error,
        verbosity,
        // 1.1
        coll::handle(MPI_INT),
        coll::handle(MPI_SUM),
    };
    return table;
}

}  // namespace plexus::mpi::osc
