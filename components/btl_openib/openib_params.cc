#include "openib_params.h"

#include <vector>

#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/param.hpp>

#include "port_select.h"

namespace plexus::btl_openib {
namespace {

const char *const kLeavePinnedValues[] = {"no", "yes", nullptr};

std::string bytes_text(uint64_t v) { return std::to_string(v) + " bytes"; }

}  // namespace

int register_openib_params(const plexus_host_api_t *host, const plexus_component_t *self, OpenibParams *p) {
    using namespace plexus::sdk;
    const int rc = register_params(host, self, {
        string_param("if_include", &p->if_include, "",
                     "HCA ports to use, comma-separated: device or device:port (mlx5_0,mlx5_1:2). "
                     "Empty: the first active port. Not together with btl_openib_if_exclude.", 2),
        string_param("if_exclude", &p->if_exclude, "",
                     "HCA ports not to use, comma-separated: device or device:port. Not together with "
                     "btl_openib_if_include.", 2),
        int_param("recv_queue_depth", &p->recv_queue_depth, "32",
                  "Receive buffers (of btl_openib_max_send_size) posted per connected peer for its "
                  "messages: the peer's send credits. Default 32.", 5).range(2, 8192),
        int_param("ctl_credits", &p->ctl_credits, "4",
                  "Receive buffers posted per peer beyond btl_openib_recv_queue_depth, for explicit "
                  "credit messages only, so that returning credits never waits for credits. Default 4.",
                  6).range(1, 64),
        int_param("send_queue_depth", &p->send_queue_depth, "128",
                  "Work requests outstanding per queue pair (sends, RDMA writes and reads). Default 128.",
                  6).range(8, 16384),
        int_param("send_buffers", &p->send_buffers, "128",
                  "Registered send buffers of btl_openib_max_send_size, shared by every peer. Default 128.",
                  6).range(4, 65536),
        int_param("eager_rdma_num", &p->eager_rdma_num, "8",
                  "Most eager RDMA channels this process grants to peers (rings peers write into and "
                  "this process polls: paper 003's maxRDMA; reconf moves them between peers). 0: none. "
                  "Default 8.", 4).range(0, 1024),
        int_param("eager_rdma_slots", &p->eager_rdma_slots, "32",
                  "Slots of one eager RDMA ring, each one message of up to btl_openib_eager_limit. "
                  "Default 32.", 5).range(2, 4096),
        int_param("eager_rdma_threshold", &p->eager_rdma_threshold, "16",
                  "Messages sent to a peer before a channel to it is asked for; 0: only when reconf "
                  "asks (fast_channel CREATE). Default 16.", 5).range(0, 1 << 30),
        enum_param("leave_pinned", &p->leave_pinned, kLeavePinnedValues, "no",
                   "Keep memory registered after put/get for the next use (LRU up to "
                   "btl_openib_reg_cache_max_bytes). Only safe when the application does not free "
                   "and reuse such buffers, or the core invalidates on free (it has no memory hooks "
                   "today: see the README). Default no.", 4),
        size_param("reg_cache_max_bytes", &p->reg_cache_max_bytes, "1g",
                   "Registered bytes kept unused by the registration cache before the least recently "
                   "used go. Default 1g.", 6),
        int_param("reg_cache_max_entries", &p->reg_cache_max_entries, "4096",
                  "Registrations kept by the registration cache. Default 4096.", 6).range(1, 1 << 24),
        size_param("max_queued", &p->max_queued, "4m",
                   "Bytes accepted for one peer and not yet posted (connecting, or out of credits) "
                   "before sends to it wait. At least btl_openib_max_send_size. Default 4m.", 6),
        int_param("ib_timeout", &p->ib_timeout, "20",
                  "RC ACK timeout exponent: 4.096 us * 2^value before a retry. Default 20.", 6).range(1, 31),
        int_param("ib_retry_count", &p->ib_retry_count, "7",
                  "RC transport retries before the connection fails. Default 7.", 6).range(0, 7),
        int_param("connect_timeout", &p->connect_timeout, "30000",
                  "Milliseconds to connect a queue pair to a peer before the job ends naming it. "
                  "Default 30000.", 5).range(1, 3'600'000),
    });
    if (rc != PLEXUS_SUCCESS) return rc;
    read_btl_limits(host, self, p);
    return PLEXUS_SUCCESS;
}

std::string validate_openib_params(const OpenibParams &p) {
    if (std::string bad = sdk::check_btl_limits("openib", sdk::limits_of(p)); !bad.empty()) return bad;
    if (p.max_send_size > (uint64_t{1} << 30))
        return "btl_openib_max_send_size is " + bytes_text(p.max_send_size) + "; valid: from btl_openib_eager_limit to 1g";
    if (std::string bad = sdk::check_max_queued("openib", p.max_queued, p.max_send_size); !bad.empty()) return bad;
    if (p.recv_queue_depth + p.ctl_credits > 65535)
        return "btl_openib_recv_queue_depth + btl_openib_ctl_credits is " +
               std::to_string(p.recv_queue_depth + p.ctl_credits) + "; valid: at most 65535";
    if (p.reg_cache_max_bytes == 0)
        return "btl_openib_reg_cache_max_bytes is 0; valid: at least 1 (a size such as 64m or 1g)";
    if (std::string bad = sdk::check_if_lists("openib", p.if_include, p.if_exclude); !bad.empty()) return bad;
    std::vector<PortSpec> specs;
    std::string err;
    if (!parse_port_list("btl_openib_if_include", p.if_include ? p.if_include : "", &specs, &err) ||
        !parse_port_list("btl_openib_if_exclude", p.if_exclude ? p.if_exclude : "", &specs, &err))
        return err;
    return "";
}

}  // namespace plexus::btl_openib
