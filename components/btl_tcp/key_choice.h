// Which secret proves a connection. Within a job, the job secret (host API job_secret), as every
// process of the job holds it. Between jobs, the secret their meeting agreed (MPI_Comm_spawn,
// accept/connect, join: the dpm component agrees it, the core registers it for each process of
// the other group, host API 1.6 peer_secrets): the other job never learns this job's secret, so
// it cannot pass for this job to a third one. The connector proves the newest secret it shares
// with the process it calls and names it in the hello (key_id); the acceptor picks the secret by
// the hello's from-namespace and, between jobs, by that id among the ones it shares with the
// caller. A process of another job that shares none with this one is refused, named.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <plexus/component.h>

#include "handshake.h"
#include "wire.h"

namespace plexus::btl_tcp {

// The key a connection proves: none for the job's own (the module's job key), else a meeting's.
using PairKey = std::shared_ptr<const HandshakeKey>;

// The connector's choice for process (nspace, rank), this process being of job own: true with
// *key null within the job (id zero), true with *key and its id between jobs, false and *why
// (naming the job) when this process shares no secret with that one.
bool key_to(const plexus_host_api_t *host, const std::string &own, const std::string &nspace, uint32_t rank,
            PairKey *key, uint8_t (&id)[kKeyIdBytes], std::string *why);

// The acceptor's choice for the hello h (checked well formed): as key_to, by h's from-namespace
// and, between jobs, the secret shared with its process whose id h names.
bool key_from(const plexus_host_api_t *host, const std::string &own, const Hello &h, PairKey *key, std::string *why);

}  // namespace plexus::btl_tcp
