// Ports. open_port publishes "<port>#open" (gone when this process ends or closes the port);
// connect checks it, then claims "<port>#req" with its reply tag and deadline (one connector at
// a time: the key is refused while another's request is unread); accept reads the request, and
// the two groups meet on keys of the connector's tag.
#include <sys/random.h>
#include <time.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "meeting.h"
#include "pmix_module.h"
#include "port_name.h"

namespace plexus::dpm_pmix {
namespace {

uint64_t now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000u + static_cast<uint64_t>(ts.tv_nsec) / 1000000u;
}

uint64_t random_word() {
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, 0) != sizeof v) v = now_ms() * 0x9e3779b97f4a7c15ull;
    return v;
}

std::string open_key(const std::string &port) { return port + "#open"; }
std::string request_key(const std::string &port) { return port + "#req"; }

// The root's checks of a port name; at every process the root's verdict (share).
int check_port(const plexus_dpm_services_t *s, const char *port) {
    std::string why;
    if (!parse_port(port, &why)) {
        s->set_error("port name '%s' is malformed: %s (use a name MPI_Open_port returned)", port, why.c_str());
        return PLEXUS_DPM_ERR_PORT;
    }
    return PLEXUS_DPM_SUCCESS;
}

// The accepting root: waits for a connector's request that is still within its deadline.
int wait_request(PmixModule &m, const std::string &port, std::string *reply_tag) {
    const plexus_dpm_services_t *s = m.services;
    const uint64_t end = now_ms() + static_cast<uint64_t>(timeout_ms(m));
    for (;;) {
        const uint64_t now = now_ms();
        if (now >= end) break;
        char *value = nullptr;
        int rc = s->lookup_wait(request_key(port).c_str(), static_cast<int>(end - now), &value);
        if (rc == PLEXUS_DPM_ERR_PORT) break;
        if (rc) return rc;
        char tag[512] = {};
        uint64_t deadline = 0;
        const bool ok = std::sscanf(value, "%511s %" SCNu64, tag, &deadline) == 2;
        std::free(value);
        // A connector that gave up long ago left its request behind: skip it.
        if (ok && deadline > now_ms()) return *reply_tag = tag, PLEXUS_DPM_SUCCESS;
    }
    s->set_error("nobody connected to port %s within %d ms (dpm_base_connect_timeout)", port.c_str(), timeout_ms(m));
    return PLEXUS_DPM_ERR_PORT;
}

// The connecting root: the port is open, and its request is placed.
int place_request(PmixModule &m, const std::string &port, std::string *reply_tag) {
    const plexus_dpm_services_t *s = m.services;
    if (int rc = check_port(s, port.c_str())) return rc;
    char marker[16];
    if (s->lookup(open_key(port).c_str(), marker, sizeof marker) != PLEXUS_DPM_SUCCESS) {
        s->set_error("port %s is not open (closed, or its process ended)", port.c_str());
        return PLEXUS_DPM_ERR_PORT;
    }
    *reply_tag = unique_tag(m, "connect");
    const uint64_t deadline = now_ms() + static_cast<uint64_t>(timeout_ms(m));
    const std::string request = *reply_tag + " " + std::to_string(deadline);
    while (now_ms() < deadline) {
        const int rc = s->publish_as(request_key(port).c_str(), request.c_str(), PLEXUS_DPM_PERSIST_FIRST_READ);
        if (rc == PLEXUS_DPM_SUCCESS) return rc;
        if (rc != PLEXUS_DPM_ERR_SERVICE) return rc;
        // Another connector's request waits for the acceptor: ours goes in once it is read.
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    s->set_error("port %s stayed busy with other connectors for %d ms (dpm_base_connect_timeout)", port.c_str(),
                 timeout_ms(m));
    return PLEXUS_DPM_ERR_PORT;
}

}  // namespace

int open_port(plexus_dpm_module_t *self, char port[PLEXUS_DPM_PORT_MAX]) {
    PmixModule &m = self_of(self);
    const std::string name = format_port({m.nspace, m.rank, m.serial++, random_word()});
    if (name.size() >= PLEXUS_DPM_PORT_MAX) {
        m.services->set_error("the port name would be %zu characters, over MPI_MAX_PORT_NAME", name.size());
        return PLEXUS_DPM_ERR_INTERN;
    }
    if (int rc = m.services->publish_as(open_key(name).c_str(), "1", PLEXUS_DPM_PERSIST_PROC)) return rc;
    m.ports.insert(name);
    std::memcpy(port, name.c_str(), name.size() + 1);
    return PLEXUS_DPM_SUCCESS;
}

int close_port(plexus_dpm_module_t *self, const char *port) {
    PmixModule &m = self_of(self);
    auto it = m.ports.find(port);
    if (it == m.ports.end()) {
        std::string why;
        m.services->set_error(parse_port(port, &why) ? "port %s is not open in this process"
                                                     : "port name '%s' is malformed",
                              port);
        return PLEXUS_DPM_ERR_PORT;
    }
    m.services->unpublish(open_key(*it).c_str());
    m.ports.erase(it);
    return PLEXUS_DPM_SUCCESS;
}

int accept(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
           plexus_coll_comm_t **intercomm) {
    PmixModule &m = self_of(self);
    const plexus_dpm_services_t *s = m.services;
    const bool is_root = s->coll->comm_rank(comm) == root;
    int rc = PLEXUS_DPM_SUCCESS;
    std::string tag;
    if (is_root) {
        if (int c = check_port(s, port)) rc = c;
        else if (!m.ports.count(port)) {
            s->set_error("port %s was not opened by this process (MPI_Open_port at the root first)", port);
            rc = PLEXUS_DPM_ERR_PORT;
        } else {
            rc = wait_request(m, port, &tag);
        }
    }
    if (share(s, root, comm, &rc, &tag)) return rc;
    NameChannel ch(s, tag + ".a", tag + ".c", timeout_ms(m));
    return meet(s, is_root ? &ch : nullptr, false, root, comm, intercomm);
}

int connect(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
            plexus_coll_comm_t **intercomm) {
    PmixModule &m = self_of(self);
    const plexus_dpm_services_t *s = m.services;
    const bool is_root = s->coll->comm_rank(comm) == root;
    int rc = PLEXUS_DPM_SUCCESS;
    std::string tag;
    if (is_root) rc = place_request(m, port, &tag);
    if (share(s, root, comm, &rc, &tag)) return rc;
    NameChannel ch(s, tag + ".c", tag + ".a", timeout_ms(m));
    rc = meet(s, is_root ? &ch : nullptr, true, root, comm, intercomm);
    // A request nobody took would stay in the store, and keep the port busy for later connectors
    // until the job ends: take it back (an acceptor that read it meanwhile fails at its timeout).
    if (rc != PLEXUS_DPM_SUCCESS && is_root) withdraw(s, request_key(port));
    if (rc == PLEXUS_DPM_ERR_PORT && is_root)
        s->set_error("nobody accepted on port %s within %d ms (dpm_base_connect_timeout)", port, timeout_ms(m));
    return rc;
}

}  // namespace plexus::dpm_pmix
