// Two groups meet (the paper's communication phase, section 5.3): collective over each group,
// the roots talking through roots.h. In order:
//   1. every process hands its business cards to its root (gather);
//   2. hello / hello_ack: group sizes and ids, context-id proposals (and the link: ud or rc);
//      propose / propose_ack until both propose the same id (services->context_id);
//   3. cards / cards_ack: each group's processes and their cards; each root spreads what it got
//      (bcast), every process keeps the other group's cards (services->provide_cards) and the
//      answering group builds its inter-communicator (services->intercomm_create);
//   4. the starting group builds its own, and done / done_ack tells the answerer.
// The answering group builds first and returns only once the starting group has built, so no
// message of either reaches a process that does not know its sender yet.
#pragma once

#include <string>

#include <plexus/component.h>
#include <plexus/dpm.h>

#include "roots.h"

namespace plexus::dpm_ud {

enum class Mode { ud = 0, rc = 1, automatic = 2 };

// What a meeting needs besides its group.
struct MeetingContext {
    const plexus_dpm_services_t *s = nullptr;
    const plexus_host_api_t *host = nullptr;
    const plexus_component_t *self = nullptr;
    Mode mode = Mode::ud;
    int auto_threshold = 256;  // processes in both groups from which automatic picks rc
    int timeout_ms = 60000;
    int fail_class = PLEXUS_DPM_ERR_PORT;  // what a failure to reach the other root returns
};

// The local group: comm and its root, where the root's side (below) lives.
struct Group {
    plexus_coll_comm_t *comm;
    int root;
};

// root is the starting root's link (nullptr elsewhere); status/why: whether the root could
// start at all (opening its endpoint), shared with the group first.
int meet_as_starter(const MeetingContext &c, Group g, StarterRoot *root, uint64_t session, int status,
                    const std::string &why, plexus_coll_comm_t **intercomm);
// root has the hello already (nullptr elsewhere); status/why: whether it came.
int meet_as_answerer(const MeetingContext &c, Group g, AnswerRoot *root, int status, const std::string &why,
                     plexus_coll_comm_t **intercomm);

}  // namespace plexus::dpm_ud
