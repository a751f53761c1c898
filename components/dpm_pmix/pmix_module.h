// The dpm_pmix module: every dpm operation through the job manager's PMIx services (the core's
// launch, publish/lookup and business cards) and the meeting of two groups (meeting.h).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include <plexus/component.h>
#include <plexus/dpm.h>

namespace plexus::dpm_pmix {

// The environment variable that carries the spawn's tag to the children.
constexpr const char *kParentVariable = "PLEXUS_DPM_PARENT";

struct PmixModule {
    plexus_dpm_module_t base;  // first: the core sees this
    const plexus_host_api_t *host = nullptr;
    const plexus_component_t *self = nullptr;  // for the host's log
    const plexus_dpm_services_t *services = nullptr;
    std::string nspace;  // this process
    uint32_t rank = 0;
    uint64_t serial = 0;          // spawns and ports made here
    std::set<std::string> ports;  // open here
};

// The module for this process (one; reset by each call).
plexus_dpm_module_t *create_module(const plexus_host_api_t *host, const plexus_component_t *self);
void destroy_module();

// What the module functions share (pmix_spawn.cc, pmix_ports.cc, pmix_join.cc).
PmixModule &self_of(plexus_dpm_module_t *m);
int timeout_ms(const PmixModule &m);
// The spawn's timeline (docs/dynamic-processes.md, "Where the time of a spawn goes"): at
// dpm_base_verbose >= 10 (PLEXUS_LOG_DETAIL), one line per step with CLOCK_MONOTONIC in ms, the
// clock plexrun's PLEXRUN_TRACE also gives, so that the lines of parent, child and launcher merge.
void mark(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
// A tag no other spawn or port of any process uses: "plexus.dpm.<nspace>.<rank>.<n>".
std::string unique_tag(PmixModule &m, const char *what);

int spawn(plexus_dpm_module_t *self, int n, const plexus_dpm_command_t cmds[], int root, plexus_coll_comm_t *comm,
          plexus_coll_comm_t **intercomm, int errcodes[]);
int meet_parent(PmixModule &m, plexus_coll_comm_t *world, plexus_coll_comm_t **parent);

int open_port(plexus_dpm_module_t *self, char port[PLEXUS_DPM_PORT_MAX]);
int close_port(plexus_dpm_module_t *self, const char *port);
int accept(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
           plexus_coll_comm_t **intercomm);
int connect(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
            plexus_coll_comm_t **intercomm);
int join(plexus_dpm_module_t *self, int fd, plexus_coll_comm_t **intercomm);

}  // namespace plexus::dpm_pmix
