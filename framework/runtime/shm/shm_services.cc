#include "runtime/shm/shm_services.h"

#include <cstdio>
#include <mutex>
#include <set>

#include "runtime/runtime.h"
#include "runtime/shm/fd_borrow.h"
#include "runtime/shm/peer_mapping.h"
#include "runtime/shm/shm_segment.h"
#include "runtime/shm/single_copy.h"

// The opaque handle of plexus/shm.h.
struct plexus_shm_segment {
    plexus::runtime::ShmSegment seg;
};

struct plexus_shm_peer_map {
    plexus::runtime::PeerMapping map;
};

namespace plexus::runtime {
namespace {

std::mutex g_lock;
std::set<const plexus_shm_segment *> g_live;  // handles given out and not detached
std::string g_test_prefix;

int fail(plexus_reason_t *why, int code, const std::string &text) {
    if (why) std::snprintf(why->text, sizeof why->text, "%s", text.c_str());
    return code;
}

int fail(plexus_reason_t *why, const Status &s) { return fail(why, s.code, s.message); }

bool live(const plexus_shm_segment *h) {
    std::lock_guard guard(g_lock);
    return h && g_live.count(h);
}

plexus_shm_segment_t *adopt(ShmSegment seg) {
    auto *h = new plexus_shm_segment{std::move(seg)};
    std::lock_guard guard(g_lock);
    g_live.insert(h);
    return h;
}

Status job_prefix(std::string *out) {
    {
        std::lock_guard guard(g_lock);
        if (!g_test_prefix.empty()) {
            *out = g_test_prefix;
            return Status::ok();
        }
    }
    Runtime *rt = Runtime::current();
    if (!rt) return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "no runtime: a segment needs the job's shm prefix");
    return rt->shm_prefix(out);
}

int fd_passing(plexus_reason_t *why) {
    std::string text;
    if (fd_passing_available(&text)) return 1;
    fail(why, 0, text);
    return 0;
}

int segment_create(const plexus_shm_create_args_t *args, plexus_shm_segment_t **out, plexus_reason_t *why) {
    if (!args || !out || args->struct_size < sizeof(plexus_shm_create_args_t))
        return fail(why, PLEXUS_ERR_BAD_PARAM, "segment_create: no arguments, no out pointer, or a short struct_size");
    *out = nullptr;
    if (!args->label) return fail(why, PLEXUS_ERR_BAD_PARAM, "segment_create: no label");
    if (args->flags & ~uint32_t{PLEXUS_SHM_CREATE_NAMED})
        return fail(why, PLEXUS_ERR_BAD_PARAM, "segment_create: unknown flags");
    ShmCreateSpec spec;
    if (Status s = job_prefix(&spec.prefix); !s) return fail(why, s);
    spec.label = args->label;
    spec.size = args->size;
    spec.expected_peers = args->expected_peers;
    spec.named = args->flags & PLEXUS_SHM_CREATE_NAMED;
    ShmSegment seg;
    if (Status s = ShmSegment::create(spec, &seg); !s) return fail(why, s);
    *out = adopt(std::move(seg));
    return PLEXUS_SUCCESS;
}

int segment_attach(const plexus_shm_desc_t *desc, plexus_shm_segment_t **out, plexus_reason_t *why) {
    if (!desc || !out) return fail(why, PLEXUS_ERR_BAD_PARAM, "segment_attach: no descriptor or no out pointer");
    *out = nullptr;
    ShmSegment seg;
    if (Status s = ShmSegment::attach(*desc, &seg); !s) return fail(why, s);
    *out = adopt(std::move(seg));
    return PLEXUS_SUCCESS;
}

int segment_describe(const plexus_shm_segment_t *h, plexus_shm_desc_t *out) {
    if (!live(h) || !out) return PLEXUS_ERR_BAD_PARAM;
    *out = h->seg.describe();
    return PLEXUS_SUCCESS;
}

int segment_info(const plexus_shm_segment_t *h, plexus_shm_segment_info_t *out) {
    if (!live(h) || !out || out->struct_size < sizeof(plexus_shm_segment_info_t)) return PLEXUS_ERR_BAD_PARAM;
    const ShmSegment &s = h->seg;
    plexus_shm_segment_info_t i{};
    i.struct_size = sizeof i;
    i.owner_pid = s.owner_pid();
    i.base = s.base();
    i.size = s.size();
    i.owned = s.owned();
    i.anonymous = s.anonymous();
    i.named = s.named();
    i.attached = s.attached();
    i.expected_peers = s.expected_peers();
    std::snprintf(i.name, sizeof i.name, "%s", s.name().c_str());
    *out = i;
    return PLEXUS_SUCCESS;
}

int segment_unlink(plexus_shm_segment_t *h, int if_all_attached) {
    if (!live(h) || !h->seg.owned()) return PLEXUS_ERR_BAD_PARAM;
    if (if_all_attached) return h->seg.unlink_if_all_attached() ? 1 : 0;
    h->seg.unlink();
    return 1;
}

int segment_detach(plexus_shm_segment_t *h) {
    {
        std::lock_guard guard(g_lock);
        if (!h || !g_live.erase(h)) return PLEXUS_ERR_BAD_PARAM;
    }
    delete h;
    return PLEXUS_SUCCESS;
}

int copy_available(plexus_reason_t *why) {
    if (Status s = single_copy_available(); !s) return fail(why, 0, s.message);
    return 1;
}

int copy_probe(int32_t pid, uint64_t addr, uint64_t expect, plexus_reason_t *why) {
    if (pid <= 0) return fail(why, PLEXUS_ERR_BAD_PARAM, "single_copy_probe: pid " + std::to_string(pid));
    if (Status s = single_copy_probe(pid, addr, expect); !s) return fail(why, s);
    return PLEXUS_SUCCESS;
}

int copy(int32_t pid, const plexus_shm_iovec_t *local, size_t nlocal, const plexus_shm_remote_iovec_t *remote,
         size_t nremote, int write, plexus_reason_t *why) {
    if (pid <= 0) return fail(why, PLEXUS_ERR_BAD_PARAM, "single_copy: pid " + std::to_string(pid));
    if (Status s = single_copy(pid, local, nlocal, remote, nremote, write != 0); !s) return fail(why, s);
    return PLEXUS_SUCCESS;
}

int peer_map(int32_t pid, int32_t fd, uint64_t offset, uint64_t len, plexus_shm_peer_map_t **out, void **addr,
             plexus_reason_t *why) {
    if (!out || !addr) return fail(why, PLEXUS_ERR_BAD_PARAM, "peer_map: no out pointer");
    *out = nullptr;
    PeerMapping m;
    if (Status s = PeerMapping::map(pid, fd, offset, len, &m); !s) return fail(why, s);
    *out = new plexus_shm_peer_map{std::move(m)};
    *addr = (*out)->map.at();
    return PLEXUS_SUCCESS;
}

int peer_unmap(plexus_shm_peer_map_t *m) {
    if (!m) return PLEXUS_ERR_BAD_PARAM;
    delete m;
    return PLEXUS_SUCCESS;
}

}  // namespace

const plexus_shm_services_t kShmServices = {
    sizeof(plexus_shm_services_t), PLEXUS_SHM_MAJOR, PLEXUS_SHM_MINOR,
    fd_passing,
    segment_create, segment_attach, segment_describe, segment_info, segment_unlink, segment_detach,
    copy_available, copy_probe, copy,
    peer_map, peer_unmap,
};

void set_shm_prefix_for_tests(const std::string &prefix) {
    std::lock_guard guard(g_lock);
    g_test_prefix = prefix;
}

}  // namespace plexus::runtime
