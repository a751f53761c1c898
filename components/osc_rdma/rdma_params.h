// osc_rdma's parameters: the protocol (auto or one forced for every message), the size of the
// buffered protocol's coalescing buffers (0: each BTL's eager limit), and whether passive target
// may complete without the target (osc_rdma_async_progress, rdma_async.h), and from how many bytes
// the gets and large puts of a fence or PSCW epoch in such a window go by one single copy
// (rdma_epoch_copy.cc).
#pragma once

#include <cstddef>

#include <plexus/component.h>

#include "rdma_protocol.h"

namespace plexus::osc_rdma {

struct Config {
    Setting protocol = Setting::kAuto;
    size_t buffer_size = 0;  // 0: the eager limit of the BTL to each peer
    bool async_progress = true;  // windows within one node: locks and data without the target
    // Fence and PSCW epochs of such windows: contiguous gets (puts of kDirectPutBytes or more) to
    // a target, batched, go by one single copy when they add up to at least this many bytes, as
    // messages below (0: never).
    size_t get_batch_min = 512;
    size_t put_batch_min = 8192;
};

int register_params(const plexus_host_api_t *host, const plexus_component_t *self);
const Config &config();
// The component as the host API knows it (its log() filters by osc_base_verbose through it).
const plexus_component_t *component_self();

// Bytes of one message to a peer reached by a BTL with these limits: buffer_size bounded by
// what one send may carry; 0 when not even one record of one byte fits (the caller declines).
size_t message_capacity(const Config &c, size_t eager_limit, size_t max_send_size);

}  // namespace plexus::osc_rdma
