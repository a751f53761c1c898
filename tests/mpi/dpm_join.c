/* MPI_Comm_join over a TCP connection (tests/mpi/README.md): rank 0 listens on 127.0.0.1, tells
 * rank 1 its port, rank 1 connects; both join, exchange byte for byte over the new
 * inter-communicator (one process a side), merge it both ways, and disconnect. Twice, to show a
 * second join over a fresh connection works after the first was disconnected. 2 ranks.
 *
 * "dpm_join jobs" (1 rank): the join is between two jobs. The process spawns one child, hands it
 * the listening port over the parent inter-communicator, and both disconnect it before they
 * join: the join's inter-communicator is then the only one between them, so over btl_tcp its
 * connection proves the secret the join agreed (the spawn's was forgotten at the disconnect). */
#include "dpm_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static int listen_local(int *port)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(l >= 0, "socket failed");
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    CHECK(bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 1) == 0 &&
              getsockname(l, (struct sockaddr *)&a, &len) == 0,
          "bind/listen failed");
    *port = ntohs(a.sin_port);
    return l;
}

static int connect_local(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)port);
    CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect to 127.0.0.1:%d failed", port);
    return fd;
}

static int tcp_pair(void)
{
    int fd = -1;
    if (tu_rank == 0) {
        int port = 0;
        int l = listen_local(&port);
        /* Synchronous: accept() below blocks outside MPI, so the port must have reached rank 1
         * before it; a standard send may return with the message still waiting for this process
         * to progress (over btl_tcp, the connection's handshake). */
        CHECK_MPI(MPI_Ssend(&port, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
        fd = accept(l, NULL, NULL);
        close(l);
    } else {
        int port = 0;
        CHECK_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fd = connect_local(port);
    }
    CHECK(fd >= 0, "no TCP connection");
    return fd;
}


/* The parent (group 0) and its one child (group 1) join over a socket of their own. */
static int join_jobs(const char *self)
{
    MPI_Comm parent, spawned, inter;
    MPI_Comm_get_parent(&parent);
    const int child = parent != MPI_COMM_NULL;
    int fd = -1, port = 0;
    if (!child) {
        tu_require_ranks(1, 1);
        int l = listen_local(&port);
        char *cargv[] = {"jobs", NULL};
        int code = 0;
        CHECK_MPI(MPI_Comm_spawn((char *)self, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &spawned, &code));
        /* Synchronous: accept() blocks outside MPI (see tcp_pair). */
        CHECK_MPI(MPI_Ssend(&port, 1, MPI_INT, 0, 1, spawned));
        CHECK_MPI(MPI_Comm_disconnect(&spawned));
        fd = accept(l, NULL, NULL);
        close(l);
    } else {
        CHECK_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        fd = connect_local(port);
    }
    CHECK(fd >= 0, "no TCP connection");
    CHECK_MPI(MPI_Comm_join(fd, &inter));
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    CHECK(remote == 1, "join gave %d remote processes", remote);
    dpm_exchange(inter, child, 70000);
    dpm_merge_check(inter, child);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    close(fd);
    return tu_finish("a join between two jobs (%s)", child ? "the child" : "the parent");
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "jobs") == 0) return join_jobs(argv[0]);
    tu_require_ranks(2, 2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int round = 0; round < 2; ++round) {
        int fd = tcp_pair();
        MPI_Comm inter;
        CHECK_MPI(MPI_Comm_join(fd, &inter));
        int size = 0, remote = 0;
        MPI_Comm_size(inter, &size);
        MPI_Comm_remote_size(inter, &remote);
        CHECK(size == 1 && remote == 1, "join gave %d local and %d remote processes", size, remote);
        dpm_exchange(inter, tu_rank, 70000);
        dpm_merge_check(inter, tu_rank);
        CHECK_MPI(MPI_Comm_disconnect(&inter));
        close(fd);
    }
    return tu_finish("two joins over TCP");
}
