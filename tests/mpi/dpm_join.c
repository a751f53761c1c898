/* MPI_Comm_join over a TCP connection (tests/mpi/README.md): rank 0 listens on 127.0.0.1, tells
 * rank 1 its port, rank 1 connects; both join, exchange byte for byte over the new
 * inter-communicator (one process a side), merge it both ways, and disconnect. Twice, to show a
 * second join over a fresh connection works after the first was disconnected. 2 ranks. */
#include "dpm_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static int tcp_pair(void)
{
    int fd = -1;
    if (tu_rank == 0) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(l >= 0, "socket failed");
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        CHECK(bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 1) == 0, "bind/listen failed");
        socklen_t len = sizeof a;
        CHECK(getsockname(l, (struct sockaddr *)&a, &len) == 0, "getsockname failed");
        int port = ntohs(a.sin_port);
        /* Synchronous: accept() below blocks outside MPI, so the port must have reached rank 1
         * before it; a standard send may return with the message still waiting for this process
         * to progress (over btl_tcp, the connection's handshake). */
        CHECK_MPI(MPI_Ssend(&port, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
        fd = accept(l, NULL, NULL);
        close(l);
    } else {
        int port = 0;
        CHECK_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons((unsigned short)port);
        CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect to 127.0.0.1:%d failed", port);
    }
    CHECK(fd >= 0, "no TCP connection");
    return fd;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
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
