/* Strangers knocking on btl_tcp's door (Plexus only, over `--mca btl tcp,self`): rank 0 finds
 * rank 1's listening TCP port through /proc (rank 1's socket descriptors and /proc/net/tcp), then
 * connects three times without the job secret: 64 bytes of garbage, a connection that says
 * nothing (closed after btl_tcp_handshake_timeout), and one that ends its stream at once. Rank 1
 * must close each (rank 0 waits, bounded, for the end of the stream) while it sits in MPI_Recv;
 * afterwards every pair of ranks still exchanges messages of 0 B to 1 MiB byte for byte. Rank 1
 * reports the three refusals when it finalizes (the case checks that line). Linux only. */
#define _GNU_SOURCE
#include "test_util.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

/* The inodes of pid's sockets. */
static int socket_inodes(int pid, unsigned long *out, int cap)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s: %s", dir, strerror(errno));
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        char path[400], link[128];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t len = readlink(path, link, sizeof link - 1);
        if (len <= 0) continue;
        link[len] = 0;
        if (sscanf(link, "socket:[%lu]", &out[n]) == 1) ++n;
    }
    closedir(d);
    return n;
}

/* The port of the one listening TCP socket among pid's sockets. */
static int listening_port(int pid)
{
    unsigned long inodes[256];
    int n = socket_inodes(pid, inodes, 256);
    FILE *f = fopen("/proc/net/tcp", "r");
    CHECK(f != NULL, "cannot open /proc/net/tcp: %s", strerror(errno));
    char line[512];
    int port = -1, found = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned local_addr, local_port, state;
        unsigned long inode;
        if (sscanf(line, " %*d: %x:%x %*x:%*x %x %*x:%*x %*x:%*x %*x %*u %*d %lu", &local_addr, &local_port,
                   &state, &inode) != 4 || state != 0x0a)
            continue;
        for (int i = 0; i < n; ++i)
            if (inodes[i] == inode) {
                port = (int)local_port;
                ++found;
            }
    }
    fclose(f);
    CHECK(found == 1, "rank 1 (pid %d) has %d listening TCP sockets, expected btl_tcp's one", pid, found);
    return port;
}

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0, "socket: %s", strerror(errno));
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "connect to port %d: %s", port, strerror(errno));
    return fd;
}

/* Waits (at most 20 s) until the other end closes fd; what it sent meanwhile is an error. */
static void expect_closed(int fd, const char *what)
{
    double end = MPI_Wtime() + 20;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int rc = poll(&p, 1, 100);
        if (rc > 0) {
            char buf[64];
            ssize_t got = recv(fd, buf, sizeof buf, 0);
            CHECK(got <= 0, "%s: rank 1 answered %zd bytes instead of closing", what, got);
            break;
        }
        CHECK(MPI_Wtime() < end, "%s: rank 1 did not close the connection within 20 s", what);
    }
    close(fd);
}

static void exchange_all(void)
{
    static const int sizes[] = {0, 1, 1000, 65536, 1 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
        int n = sizes[s];
        unsigned char *out = tu_malloc((size_t)n + 1), *in = tu_malloc((size_t)n + 1);
        for (int peer = 0; peer < tu_size; ++peer) {
            if (peer == tu_rank) continue;
            tu_fill(out, (size_t)n, tu_seed(tu_rank, peer, (size_t)n, 0));
            CHECK_MPI(MPI_Sendrecv(out, n, MPI_BYTE, peer, 7, in, n, MPI_BYTE, peer, 7, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
            VERIFY(in, (size_t)n, tu_seed(peer, tu_rank, (size_t)n, 0), "message after the strangers");
        }
        free(out);
        free(in);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    int pid = (int)getpid();
    if (tu_rank == 1) CHECK_MPI(MPI_Send(&pid, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
    if (tu_rank == 0) {
        CHECK_MPI(MPI_Recv(&pid, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int port = listening_port(pid);
        int fd = connect_to(port);
        unsigned char junk[64];
        for (size_t i = 0; i < sizeof junk; ++i) junk[i] = (unsigned char)(i * 37 + 11);
        CHECK(send(fd, junk, sizeof junk, 0) == (ssize_t)sizeof junk, "send: %s", strerror(errno));
        expect_closed(fd, "garbage");
        expect_closed(connect_to(port), "a silent connection");
        fd = connect_to(port);
        shutdown(fd, SHUT_WR);
        expect_closed(fd, "a connection that ended at once");
        int done = 1;
        CHECK_MPI(MPI_Send(&done, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
    }
    if (tu_rank == 1) {
        int done = 0;
        CHECK_MPI(MPI_Recv(&done, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(done, 1);
    }
    exchange_all();
    return tu_finish("three connections without the job secret closed by rank 1; every pair then exchanged 0 B - 1 MiB");
}
