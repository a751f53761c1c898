// The dpm_ud module: spawn, ports and join over the meeting of meeting.h, the endpoints it owns
// (one per open port; one per spawn while it runs) and the ones that linger until their last
// response is acknowledged.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <plexus/component.h>
#include <plexus/dpm.h>

#include "endpoint.h"
#include "meeting.h"
#include "ud_params.h"

namespace plexus::dpm_ud {

// The environment variable that hands the parent root's reach to the spawned children.
constexpr const char *kParentVariable = "PLEXUS_DPM_UD_PARENT";

struct Port {
    Key key{};
    std::unique_ptr<Endpoint> endpoint;
};

struct UdModule {
    plexus_dpm_module_t base;  // first: the core sees this
    const plexus_host_api_t *host = nullptr;
    const plexus_component_t *self = nullptr;
    const plexus_dpm_services_t *services = nullptr;
    const UdParams *params = nullptr;
    std::string nspace;  // this process
    uint32_t rank = 0;
    std::map<std::string, Port> ports;                  // open here, by name
    std::vector<std::unique_ptr<Endpoint>> lingering;  // closed once idle

    MeetingContext context(int fail_class) const;
    // Closes the lingering endpoints whose responses are acknowledged (or failed).
    void reap();
    // ep's responses may still be in flight: it lingers until they are not.
    void retire(std::unique_ptr<Endpoint> ep);
    std::string interface() const;
};

plexus_dpm_module_t *create_module(const plexus_host_api_t *host, const plexus_component_t *self,
                                   const UdParams *params);
void destroy_module();
UdModule &self_of(plexus_dpm_module_t *m);

// The meeting's timeline (README.md, "Where a meeting's time goes"): at dpm_base_verbose >= 10
// (PLEXUS_LOG_DETAIL), one line per step with CLOCK_MONOTONIC in ms, the clock dpm_pmix's and
// plexrun's traces use, so that the lines of both groups' processes merge into one timeline.
void mark(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

// A random sender id for a starting root (0 is the answering root's).
uint32_t starter_id();
uint64_t random_session();

int spawn(plexus_dpm_module_t *self, int n, const plexus_dpm_command_t cmds[], int root, plexus_coll_comm_t *comm,
          plexus_coll_comm_t **intercomm, int errcodes[]);
int meet_parent(UdModule &m, plexus_coll_comm_t *world, plexus_coll_comm_t **parent);

int open_port(plexus_dpm_module_t *self, char port[PLEXUS_DPM_PORT_MAX]);
int close_port(plexus_dpm_module_t *self, const char *port);
int accept(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
           plexus_coll_comm_t **intercomm);
int connect(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
            plexus_coll_comm_t **intercomm);
int join(plexus_dpm_module_t *self, int fd, plexus_coll_comm_t **intercomm);

}  // namespace plexus::dpm_ud
