// The reliable layer's members of the datagram services table (DGRAM 1.1): argument checks and
// the mapping onto Reliable.
#pragma once

#include <plexus/dgram.h>

namespace plexus::runtime::dgram::reliable_api {

int open(plexus_dgram_endpoint_t *ep, const plexus_dgram_reliable_args_t *args, plexus_dgram_reliable_t **out,
         plexus_reason_t *why);
int close(plexus_dgram_reliable_t *rel);
int send(plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len, const plexus_dgram_iov_t *iov,
         size_t n, int timeout_ms, plexus_dgram_op_t **op);
int request(plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len, const plexus_dgram_iov_t *iov,
            size_t n, int timeout_ms, plexus_dgram_op_t **op);
int respond(plexus_dgram_reliable_t *rel, const plexus_dgram_peer_t *from, const plexus_dgram_iov_t *iov,
            size_t n, plexus_dgram_op_t **op);
int progress(void *rel);
int wait(plexus_dgram_reliable_t *rel, plexus_dgram_op_t *op, int timeout_ms);
int stats(plexus_dgram_reliable_t *rel, plexus_dgram_reliable_stats_t *out);
const char *last_error(plexus_dgram_reliable_t *rel);
int op_status(const plexus_dgram_op_t *op);
int op_response(const plexus_dgram_op_t *op, const void **data, size_t *len);
const char *op_error(const plexus_dgram_op_t *op);
int op_free(plexus_dgram_op_t *op);

}  // namespace plexus::runtime::dgram::reliable_api
