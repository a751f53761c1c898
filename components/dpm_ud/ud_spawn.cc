// Spawn (the paper's section 5.3.2). The parent root opens an endpoint under a key of this spawn
// alone, starts the children through the job manager (services->launch: PMIx_Spawn) with its
// reach in their environment, and waits for their root's hello; the children's rank 0 sends it
// from MPI_Init (meet_parent). Then both groups meet (meeting.h), the parents answering.
#include <cstdlib>
#include <string>
#include <vector>

#include <plexus/sdk/dpm_spawn.hpp>

#include "ud_module.h"

namespace plexus::dpm_ud {
namespace {

// The parent root: endpoint, launch. codes gets one entry per process.
int start(UdModule &m, int n, const plexus_dpm_command_t cmds[], Key *key, uint64_t session,
          std::unique_ptr<Endpoint> *ep, std::string *nspace, std::vector<int> *codes) {
    const plexus_dpm_services_t *s = m.services;
    int total = 0;
    for (int i = 0; i < n; ++i) total += cmds[i].maxprocs;
    codes->assign(static_cast<size_t>(total), PLEXUS_DPM_ERR_SPAWN);
    std::string why;
    if (!random_bytes(key->data(), key->size())) {
        s->set_error("getrandom failed: no key for the spawn; no process was started");
        return PLEXUS_DPM_ERR_SPAWN;
    }
    if (Endpoint::open(m.host, m.self, m.interface().c_str(), *key, 0, ep, &why) != PLEXUS_SUCCESS) {
        s->set_error("dpm_ud could not open its datagram endpoint (%s); no process was started", why.c_str());
        return PLEXUS_DPM_ERR_SPAWN;
    }
    const std::string env_entry = std::string(kParentVariable) + "=" + format_parent({(*ep)->address(), *key}, session);
    const char *env[] = {env_entry.c_str(), nullptr};
    char ns[PLEXUS_NSPACE_MAX] = {};
    const int rc = s->launch(n, cmds, env, ns, sizeof ns, codes->data());
    *nspace = ns;
    return rc;
}

}  // namespace

int spawn(plexus_dpm_module_t *self, int n, const plexus_dpm_command_t cmds[], int root, plexus_coll_comm_t *comm,
          plexus_coll_comm_t **intercomm, int errcodes[]) {
    UdModule &m = self_of(self);
    m.reap();
    const plexus_dpm_services_t *s = m.services;
    const bool is_root = s->coll->comm_rank(comm) == root;
    Key key{};
    const uint64_t session = random_session();
    std::unique_ptr<Endpoint> ep;
    std::string children;
    std::vector<int> codes;
    int rc = PLEXUS_DPM_SUCCESS;
    if (is_root) rc = start(m, n, cmds, &key, session, &ep, &children, &codes);
    rc = sdk::share_spawn_outcome(s, rc, &codes, root, comm, errcodes);
    if (rc != PLEXUS_DPM_SUCCESS) return rc;
    const MeetingContext c = m.context(PLEXUS_DPM_ERR_SPAWN);
    int status = PLEXUS_DPM_SUCCESS;
    std::string why;
    std::unique_ptr<AnswerRoot> answer;
    if (is_root) {
        Incoming hello;
        auto wanted = [&](const Incoming &in) {
            return in.message.kind == Kind::hello && in.message.session == session;
        };
        mark("answerer root: children started, waiting for their hello");
        if (ep->next(wanted, nullptr, c.timeout_ms, &hello, &why) != PLEXUS_SUCCESS) {
            status = PLEXUS_DPM_ERR_SPAWN;
            why = "the spawned job " + children + " (rank 0) sent no hello to " + address_text(ep->address()) +
                  " within " + std::to_string(c.timeout_ms) +
                  " ms (dpm_base_connect_timeout): it died, hangs before MPI_Init, or does not run dpm_ud";
        } else {
            answer = std::make_unique<AnswerRoot>(ep.get(), std::move(hello), key, c.timeout_ms);
        }
    }
    rc = meet_as_answerer(c, {comm, root}, answer.get(), status, why, intercomm);
    answer.reset();
    m.retire(std::move(ep));
    // Started, but not part of an inter-communicator: no process of the spawn is usable.
    if (rc != PLEXUS_DPM_SUCCESS && errcodes)
        for (size_t i = 0; i < codes.size(); ++i) errcodes[i] = PLEXUS_DPM_ERR_SPAWN;
    return rc;
}

int meet_parent(UdModule &m, plexus_coll_comm_t *world, plexus_coll_comm_t **parent) {
    const plexus_dpm_services_t *s = m.services;
    const char *value = std::getenv(kParentVariable);
    // Spawned by something else than a dpm_ud spawn, or not at all: nobody waits.
    if (!value || !*value) return PLEXUS_DPM_SUCCESS;
    const std::string text = value;
    // Whatever this process starts by other means must not take our parents for its own.
    ::unsetenv(kParentVariable);
    const MeetingContext c = m.context(PLEXUS_DPM_ERR_SPAWN);
    const bool is_root = s->coll->comm_rank(world) == 0;
    uint64_t session = 0;
    std::string why;
    int status = PLEXUS_DPM_SUCCESS;
    std::optional<Reach> reach = parse_parent(text, &session, &why);
    std::unique_ptr<Endpoint> ep;
    std::unique_ptr<StarterRoot> start;
    if (!reach) {
        status = PLEXUS_DPM_ERR_SPAWN;
        why = std::string(kParentVariable) + " is malformed: " + why;
    } else if (is_root) {
        if (Endpoint::open(m.host, m.self, m.interface().c_str(), reach->key, starter_id(), &ep, &why) !=
            PLEXUS_SUCCESS) {
            status = PLEXUS_DPM_ERR_SPAWN;
            why = "dpm_ud could not open its datagram endpoint to meet the parents: " + why;
        } else {
            start = std::make_unique<StarterRoot>(ep.get(), reach->address, reach->key, c.timeout_ms);
            start->on_silence("the parents' root at " + address_text(reach->address) + " did not answer within " +
                              std::to_string(c.timeout_ms) + " ms (dpm_base_connect_timeout)");
            start->on_gone("the parents' root at " + address_text(reach->address) +
                           " no longer listens: its spawn gave up, or it ended");
        }
    }
    return meet_as_starter(c, {world, 0}, start.get(), session, status, why, parent);
}

}  // namespace plexus::dpm_ud
