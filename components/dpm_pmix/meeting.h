// Two groups meet: their roots trade handshake messages over a channel (the other group's
// processes and context-id proposals), each root spreads what it heard in its group, and once
// both propose the same id every process builds the inter-communicator through the services.
//
// The agreement: the side that starts proposes the lowest id free in its group; each answer is
// the lowest id free in the answering group that is at least the proposal it answers. When an
// answer equals the proposal it answers, that id is free in both groups and is the one. Ids only
// grow, so it ends (almost always after one message each way).
#pragma once

#include <plexus/dpm.h>

#include "channel.h"

namespace plexus::dpm_pmix {

// Collective over comm; ch matters at root only (others pass nullptr). starts: this side sends
// first. An error class at every process (the root's, spread), or success and *intercomm.
int meet(const plexus_dpm_services_t *s, Channel *ch, bool starts, int root, plexus_coll_comm_t *comm,
         plexus_coll_comm_t **intercomm);

// Collective over comm: root's value of *rc reaches everyone (their own is overwritten), and
// with it, when rc is success, root's *text.
int share(const plexus_dpm_services_t *s, int root, plexus_coll_comm_t *comm, int *rc, std::string *text);

}  // namespace plexus::dpm_pmix
