/* join: two processes of one job open a TCP connection between them themselves (rank 0
 * listens on 127.0.0.1, an ephemeral port it tells rank 1 with MPI_Send), hand the socket to
 * MPI_Comm_join, and use the inter-communicator: remote size 1, an array of 1000 ints each way
 * checked element by element, then MPI_Comm_disconnect. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "dpm3p.h"

#define COUNT 1000

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "join needs exactly 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int fd = -1;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (rank == 0) {
        int lfd = socket(AF_INET, SOCK_STREAM, 0);
        socklen_t len = sizeof addr;
        MT_CHECK(lfd >= 0 && bind(lfd, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(lfd, 1) == 0 &&
                     getsockname(lfd, (struct sockaddr *)&addr, &len) == 0,
                 "cannot listen on 127.0.0.1");
        int port = ntohs(addr.sin_port);
        MPI_Send(&port, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        fd = accept(lfd, NULL, NULL);
        close(lfd);
    } else {
        int port = 0;
        MPI_Recv(&port, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        addr.sin_port = htons((unsigned short)port);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        MT_CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0, "cannot connect to port %d", port);
    }
    MT_CHECK(fd >= 0, "no socket");
    MPI_Comm inter;
    MT_MPI(MPI_Comm_join(fd, &inter));
    int flag = 0, remote = 0;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &remote);
    MT_CHECK(flag && remote == 1, "join gave %s communicator with remote size %d", flag ? "an inter" : "an intra",
             remote);
    int out[COUNT], in[COUNT];
    for (int i = 0; i < COUNT; ++i) out[i] = rank * 100000 + i;
    MT_MPI(MPI_Sendrecv(out, COUNT, MPI_INT, 0, 3, in, COUNT, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE));
    for (int i = 0; i < COUNT; ++i)
        if (in[i] != (1 - rank) * 100000 + i) {
            MT_CHECK(0, "element %d is %d, expected %d", i, in[i], (1 - rank) * 100000 + i);
            break;
        }
    MT_MPI(MPI_Comm_disconnect(&inter));
    close(fd);
    return mt_finalize();
}
