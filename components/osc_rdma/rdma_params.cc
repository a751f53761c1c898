#include "rdma_params.h"

#include <algorithm>
#include <cstdint>

#include <plexus/output.h>
#include <plexus/sdk/param.hpp>

#include "rdma_coalescer.h"

namespace plexus::osc_rdma {
namespace {

constexpr const char *kProtocolValues[] = {"auto", "sendrecv", "buffered", "rma", nullptr};
constexpr const char *kAsyncValues[] = {"off", "on", nullptr};

Config g_config;
const plexus_component_t *g_self = nullptr;
int g_protocol = 0;
uint64_t g_buffer_size = 0;
int g_async = 1;
uint64_t g_get_batch_min = 512;
uint64_t g_put_batch_min = 8192;

}  // namespace

int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
    g_self = self;
    const int rc = plexus::sdk::register_params(host, self, {
        plexus::sdk::enum_param(
            "protocol", &g_protocol, kProtocolValues, "auto",
            "How each one-sided operation moves: sendrecv (queued until the epoch's closing "
            "synchronisation, then one message each), buffered (short operations coalesced into "
            "buffers of osc_rdma_buffer_size, sent as soon as the epoch allows), rma (contiguous "
            "put and get by the BTL's put/get where it has them; the rest buffered); auto chooses "
            "per message: gets and puts larger than a buffer by rma where the BTL to the target "
            "offers it, everything else buffered. Default auto.",
            4),
        plexus::sdk::size_param(
            "buffer_size", &g_buffer_size, "0",
            "Bytes of one coalescing buffer (one message, headers included) of the buffered "
            "protocol; 0 is the eager limit of the BTL to each target; bounded by the BTL's "
            "largest send. At least 65 when set. Default 0.",
            6),
        plexus::sdk::enum_param(
            "async_progress", &g_async, kAsyncValues, "on",
            "Passive target that completes while the target computes without calling MPI. on: a "
            "window whose members all share this node takes MPI_Win_lock/unlock from lock words in "
            "a small shared segment and moves the data of lock epochs by single copy (Cross Memory "
            "Attach), accumulates under the target's accumulate lock, so the target does nothing; "
            "only with osc_rdma_protocol auto; other windows, fences and PSCW are unchanged. off: the paper's passive target, by "
            "messages the target's progress engine answers (the target must enter MPI). Between "
            "nodes there is no progress thread yet: such windows use messages either way. "
            "Default on.",
            4),
        plexus::sdk::size_param(
            "get_batch_min", &g_get_batch_min, "512",
            "In a window that took passive target without the target (osc_rdma_async_progress on, "
            "every member on this node, single copy permitted), the contiguous gets of a fence or "
            "PSCW epoch to one target are collected and read with one single copy (one "
            "process_vm_readv) at the epoch's end, or before a put or accumulate to that target, "
            "when they add up to at least this many bytes; fewer go as get messages, which cost "
            "less than a system call when short. 0: never (every get by its protocol). Default 512.",
            6),
        plexus::sdk::size_param(
            "put_batch_min", &g_put_batch_min, "8192",
            "As osc_rdma_get_batch_min for the puts of 4096 bytes or more of a fence or PSCW epoch "
            "to one target: written with one single copy (one process_vm_writev, one copy where a "
            "message costs two) when they add up to at least this many bytes, as messages below. "
            "0: never. Default 8192.",
            6),
    });
    if (rc != PLEXUS_SUCCESS) return rc;
    if (g_buffer_size != 0 && g_buffer_size < Coalescer::min_capacity()) {
        host->log(self, PLEXUS_LOG_ERROR,
                  "osc_rdma_buffer_size %llu is too small: valid values are 0 (the BTL's eager limit) "
                  "or at least %zu bytes (a message header, a record header and one byte)",
                  (unsigned long long)g_buffer_size, Coalescer::min_capacity());
        return PLEXUS_ERR_BAD_PARAM;
    }
    g_config.protocol = Setting(g_protocol);
    g_config.buffer_size = size_t(g_buffer_size);
    g_config.async_progress = g_async == 1;
    g_config.get_batch_min = size_t(g_get_batch_min);
    g_config.put_batch_min = size_t(g_put_batch_min);
    return PLEXUS_SUCCESS;
}

const Config &config() { return g_config; }
const plexus_component_t *component_self() { return g_self; }

size_t message_capacity(const Config &c, size_t eager_limit, size_t max_send_size) {
    size_t cap = c.buffer_size ? c.buffer_size : eager_limit;
    if (max_send_size) cap = std::min(cap, max_send_size);
    return cap >= Coalescer::min_capacity() ? cap : 0;
}

}  // namespace plexus::osc_rdma
