// Ports (the paper's connect/accept over the same exchange). A port is an endpoint of its own,
// opened under a key of its own; its name holds the endpoint's address and the key, so holding
// the name is what lets a connector in (the name travels through the job manager's name service
// or the program's own means, as MPI leaves it). The connector's root opens an endpoint under
// the same key and starts the meeting; the accepting root answers the first hello whose
// connector still waits, later ones wait for the next accept.
#include <time.h>

#include <cstring>
#include <string>

#include "ud_module.h"

namespace plexus::dpm_ud {
namespace {

uint64_t now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000u + static_cast<uint64_t>(ts.tv_nsec) / 1000000u;
}

int malformed(const plexus_dpm_services_t *s, const char *port, const std::string &why) {
    s->set_error("port name '%s' is malformed: %s (use a name MPI_Open_port returned)", port ? port : "(null)",
                 why.c_str());
    return PLEXUS_DPM_ERR_PORT;
}

}  // namespace

int open_port(plexus_dpm_module_t *self, char port[PLEXUS_DPM_PORT_MAX]) {
    UdModule &m = self_of(self);
    m.reap();
    Port p;
    std::string why;
    if (!random_bytes(p.key.data(), p.key.size())) {
        m.services->set_error("getrandom failed: no key for the port");
        return PLEXUS_DPM_ERR_INTERN;
    }
    if (Endpoint::open(m.host, m.self, m.interface().c_str(), p.key, 0, &p.endpoint, &why) != PLEXUS_SUCCESS) {
        m.services->set_error("dpm_ud could not open the port's datagram endpoint: %s", why.c_str());
        return PLEXUS_DPM_ERR_OTHER;
    }
    const std::string name = format_port({p.endpoint->address(), p.key});
    if (name.size() >= PLEXUS_DPM_PORT_MAX) {
        m.services->set_error("the port name would be %zu characters, over MPI_MAX_PORT_NAME", name.size());
        return PLEXUS_DPM_ERR_INTERN;
    }
    std::memcpy(port, name.c_str(), name.size() + 1);
    m.ports.emplace(name, std::move(p));
    return PLEXUS_DPM_SUCCESS;
}

int close_port(plexus_dpm_module_t *self, const char *port) {
    UdModule &m = self_of(self);
    auto it = port ? m.ports.find(port) : m.ports.end();
    if (it == m.ports.end()) {
        std::string why;
        if (!parse_port(port ? port : "", &why)) return malformed(m.services, port, why);
        m.services->set_error("port %s is not open in this process", port);
        return PLEXUS_DPM_ERR_PORT;
    }
    // Its last done_ack may still be in flight: the endpoint lingers until it is acknowledged.
    m.retire(std::move(it->second.endpoint));
    m.ports.erase(it);
    m.reap();
    return PLEXUS_DPM_SUCCESS;
}

int accept(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
           plexus_coll_comm_t **intercomm) {
    UdModule &m = self_of(self);
    m.reap();
    const plexus_dpm_services_t *s = m.services;
    const MeetingContext c = m.context(PLEXUS_DPM_ERR_PORT);
    int status = PLEXUS_DPM_SUCCESS;
    std::string why;
    std::unique_ptr<AnswerRoot> answer;
    if (s->coll->comm_rank(comm) == root) {
        auto it = port ? m.ports.find(port) : m.ports.end();
        std::string bad;
        if (!parse_port(port ? port : "", &bad)) {
            status = malformed(s, port, bad);
            why = "port name '" + std::string(port ? port : "(null)") + "' is malformed: " + bad;
        } else if (it == m.ports.end()) {
            status = PLEXUS_DPM_ERR_PORT;
            why = std::string("port ") + port + " was not opened by this process (MPI_Open_port at the root first)";
        } else {
            Endpoint &ep = *it->second.endpoint;
            ep.idle();  // frees the previous meetings' acknowledged responses
            Incoming hello;
            auto wanted = [](const Incoming &in) { return in.message.kind == Kind::hello; };
            // A connector that gave up left its hello behind: nobody waits for an answer to it.
            auto stale = [](const Incoming &in) {
                return in.message.kind == Kind::hello && in.message.deadline_ms <= now_ms();
            };
            mark("answerer root: waiting for a hello");
            if (ep.next(wanted, stale, c.timeout_ms, &hello, &why) != PLEXUS_SUCCESS) {
                status = PLEXUS_DPM_ERR_PORT;
                why = "nobody connected to port " + address_text(ep.address()) + " within " +
                      std::to_string(c.timeout_ms) + " ms (dpm_base_connect_timeout)";
            } else {
                answer = std::make_unique<AnswerRoot>(&ep, std::move(hello), it->second.key, c.timeout_ms);
            }
        }
    }
    return meet_as_answerer(c, {comm, root}, answer.get(), status, why, intercomm);
}

int connect(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
            plexus_coll_comm_t **intercomm) {
    UdModule &m = self_of(self);
    m.reap();
    const plexus_dpm_services_t *s = m.services;
    const MeetingContext c = m.context(PLEXUS_DPM_ERR_PORT);
    int status = PLEXUS_DPM_SUCCESS;
    std::string why;
    std::unique_ptr<Endpoint> ep;
    std::unique_ptr<StarterRoot> start;
    if (s->coll->comm_rank(comm) == root) {
        std::string bad;
        std::optional<Reach> reach = parse_port(port ? port : "", &bad);
        if (!reach) {
            status = PLEXUS_DPM_ERR_PORT;
            why = "port name '" + std::string(port ? port : "(null)") + "' is malformed: " + bad +
                  " (use a name MPI_Open_port returned)";
        } else if (Endpoint::open(m.host, m.self, m.interface().c_str(), reach->key, starter_id(), &ep, &why) !=
                   PLEXUS_SUCCESS) {
            status = PLEXUS_DPM_ERR_OTHER;
            why = "dpm_ud could not open its datagram endpoint: " + why;
        } else {
            start = std::make_unique<StarterRoot>(ep.get(), reach->address, reach->key, c.timeout_ms);
            start->on_silence("nobody accepted on port " + address_text(reach->address) + " within " +
                              std::to_string(c.timeout_ms) + " ms (dpm_base_connect_timeout)");
            start->on_gone("port " + address_text(reach->address) +
                           " is closed: MPI_Close_port was called, or the process that opened it ended");
        }
    }
    const int rc = meet_as_starter(c, {comm, root}, start.get(), random_session(), status, why, intercomm);
    // The last response has come; nothing of ours is waited for.
    return rc;
}

}  // namespace plexus::dpm_ud
