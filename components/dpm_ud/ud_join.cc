// Join: the two processes trade their names over the socket; the one with the smaller name
// starts the meeting, which runs over the same socket (MPI_COMM_SELF on both sides): the socket
// is the reliable connection, so no datagram is sent.
#include <string>

#include "ud_module.h"

namespace plexus::dpm_ud {

int join(plexus_dpm_module_t *self, int fd, plexus_coll_comm_t **intercomm) {
    UdModule &m = self_of(self);
    m.reap();
    const plexus_dpm_services_t *s = m.services;
    const MeetingContext c = m.context(PLEXUS_DPM_ERR_PORT);
    Stream stream(fd, false, c.timeout_ms, "the process at the other end of fd " + std::to_string(fd));
    const std::string me = m.nspace + " " + std::to_string(m.rank);
    std::string why;
    Bytes other;
    // Both write first: a name fits in any socket buffer, so neither blocks.
    if (stream.send_frame(Bytes(me.begin(), me.end()), &why) || stream.recv_frame(&other, 4096, &why)) {
        s->set_error("MPI_Comm_join: %s", why.c_str());
        return PLEXUS_DPM_ERR_PORT;
    }
    const std::string them(other.begin(), other.end());
    if (them == me) {
        s->set_error("fd %d leads back to this process: MPI_Comm_join needs another process at the other end", fd);
        return PLEXUS_DPM_ERR_ARG;
    }
    plexus_coll_comm_t *self_comm = s->comm_self();
    if (me < them) {
        StarterRoot start(&stream, c.timeout_ms);
        return meet_as_starter(c, {self_comm, 0}, &start, random_session(), PLEXUS_DPM_SUCCESS, "", intercomm);
    }
    Message hello;
    if (stream.recv(&hello, &why) || hello.kind != Kind::hello) {
        s->set_error("MPI_Comm_join: %s", why.empty() ? "the other process did not start with a hello" : why.c_str());
        return PLEXUS_DPM_ERR_PORT;
    }
    AnswerRoot answer(&stream, std::move(hello), c.timeout_ms);
    return meet_as_answerer(c, {self_comm, 0}, &answer, PLEXUS_DPM_SUCCESS, "", intercomm);
}

}  // namespace plexus::dpm_ud
