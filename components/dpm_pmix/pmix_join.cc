// Join: the two processes trade their names over the socket; the one with the smaller name
// starts the meeting, which then runs over the same socket (MPI_COMM_SELF on both sides).
#include <string>

#include "meeting.h"
#include "pmix_module.h"

namespace plexus::dpm_pmix {

int join(plexus_dpm_module_t *self, int fd, plexus_coll_comm_t **intercomm) {
    PmixModule &m = self_of(self);
    const plexus_dpm_services_t *s = m.services;
    FdChannel ch(s, fd, timeout_ms(m));
    const std::string me = m.nspace + " " + std::to_string(m.rank);
    std::string other;
    // Both write first: a name fits in any socket buffer, so neither blocks.
    if (int rc = ch.send(me)) return rc;
    if (int rc = ch.recv(&other)) return rc;
    if (other == me) {
        s->set_error("fd %d leads back to this process: MPI_Comm_join needs another process at the other end", fd);
        return PLEXUS_DPM_ERR_ARG;
    }
    return meet(s, &ch, me < other, 0, s->comm_self(), intercomm);
}

}  // namespace plexus::dpm_pmix
