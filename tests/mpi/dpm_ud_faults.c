/* dpm_ud's faults (components/dpm_ud/README.md, "Faults"), 2 ranks, run with a short
 * dpm_base_connect_timeout and dpm_base_verbose 10 (tests/mpi/cases/dpm_ud_faults*.case):
 *  1. a connect to a port whose process never accepts: MPI_ERR_PORT after the timeout, the
 *     message naming the port's address, no fd left behind;
 *  2. garbage datagrams to the port's UDP address (random bytes, a short one, a forged datagram
 *     header): dropped and counted by the datagram layer (its counters are printed when the port
 *     closes, which the case checks), and the port still serves a real connect/accept after
 *     them, byte for byte; the stale hello of step 1 is not answered;
 *  3. a spawn whose children never answer (/bin/sleep, no MPI): MPI_ERR_SPAWN at both parents
 *     after the timeout, the message saying which job sent no hello, no fd left behind;
 *  4. a connect to a port its process has closed: MPI_ERR_PORT at once, the message saying the
 *     port is closed (the port's host answered the hello with ICMP port unreachable), not the
 *     timeout's "nobody accepted", no fd left behind.
 *
 *   dpm_ud_faults */
#include "dpm_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* The port's UDP address (docs/datagrams.md, Addresses: 01 01 port ipv4) from its name,
 * "plexus-ud:<address hex>:<key hex>", as "a.b.c.d:port" and as a sockaddr. */
static void port_address(const char *port, char *text, size_t len, struct sockaddr_in *sa)
{
    unsigned b[8];
    CHECK(sscanf(port, "plexus-ud:%2x%2x%2x%2x%2x%2x%2x%2x:", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6],
                 &b[7]) == 8 && b[0] == 1 && b[1] == 1,
          "port '%s' is no dpm_ud UDP port (run with dpm ud)", port);
    snprintf(text, len, "%u.%u.%u.%u:%u", b[4], b[5], b[6], b[7], b[2] << 8 | b[3]);
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)(b[2] << 8 | b[3]));
    sa->sin_addr.s_addr = htonl(b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7]);
}

static void check_message(int rc, const char *want)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    CHECK(strstr(text, want) != NULL, "the error does not say '%s': %s", want, text);
}

static void send_garbage(const struct sockaddr_in *to)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    CHECK(fd >= 0, "socket failed");
    unsigned char buf[200];
    for (size_t i = 0; i < sizeof buf; ++i) buf[i] = (unsigned char)(i * 97 + 13);
    CHECK(sendto(fd, buf, sizeof buf, 0, (const struct sockaddr *)to, sizeof *to) == (ssize_t)sizeof buf, "sendto");
    CHECK(sendto(fd, buf, 10, 0, (const struct sockaddr *)to, sizeof *to) == 10, "sendto");
    buf[0] = 0x58, buf[1] = 0x44; /* the datagram magic, then nonsense */
    CHECK(sendto(fd, buf, 120, 0, (const struct sockaddr *)to, sizeof *to) == 120, "sendto");
    close(fd);
}

static void ports(void)
{
    char port[MPI_MAX_PORT_NAME] = "";
    if (tu_rank == 0) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
    char where[64];
    struct sockaddr_in sa;
    port_address(port, where, sizeof where, &sa);
    int go = 0;
    if (tu_rank == 0) {
        /* Inside MPI, so the port's endpoint is read, but nobody accepts. */
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_Comm client;
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &client));
        dpm_exchange(client, 0, 70000);
        CHECK_MPI(MPI_Comm_disconnect(&client));
        CHECK_MPI(MPI_Close_port(port));
    } else {
        const int fds = dpm_count_dir("/proc/self/fd");
        MPI_Comm server = MPI_COMM_WORLD;
        const double t0 = MPI_Wtime();
        const int rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &server);
        CHECK_EQ(tu_error_class(rc), MPI_ERR_PORT);
        CHECK(server == MPI_COMM_NULL, "a failed connect left newcomm set");
        check_message(rc, where);
        CHECK(MPI_Wtime() - t0 < 30, "connect took %.1f s with a short timeout", MPI_Wtime() - t0);
        CHECK_EQ(dpm_count_dir("/proc/self/fd"), fds);
        send_garbage(&sa);
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &server));
        dpm_exchange(server, 1, 70000);
        CHECK_MPI(MPI_Comm_disconnect(&server));
    }
}

static void closed_port(void)
{
    char port[MPI_MAX_PORT_NAME] = "";
    if (tu_rank == 0) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (tu_rank == 0) CHECK_MPI(MPI_Close_port(port));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (tu_rank == 1) {
        char where[64];
        struct sockaddr_in sa;
        port_address(port, where, sizeof where, &sa);
        const int fds = dpm_count_dir("/proc/self/fd");
        MPI_Comm server = MPI_COMM_WORLD;
        const double t0 = MPI_Wtime();
        const int rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &server);
        CHECK_EQ(tu_error_class(rc), MPI_ERR_PORT);
        CHECK(server == MPI_COMM_NULL, "a failed connect left newcomm set");
        check_message(rc, where);
        check_message(rc, "is closed");
        CHECK_EQ(dpm_count_dir("/proc/self/fd"), fds);
        printf("dpm_ud_faults: a connect to a closed port failed after %.1f ms\n", (MPI_Wtime() - t0) * 1e3);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void silent_children(void)
{
    const int fds = dpm_count_dir("/proc/self/fd");
    char *args[] = {"3", NULL};
    int code = -7;
    MPI_Comm inter = MPI_COMM_WORLD;
    const int rc = MPI_Comm_spawn("/bin/sleep", args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, &code);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_SPAWN);
    CHECK(inter == MPI_COMM_NULL, "a failed spawn left intercomm set");
    if (tu_rank == 0) check_message(rc, "sent no hello");
    CHECK_EQ(dpm_count_dir("/proc/self/fd"), fds);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    CHECK(tu_size == 2, "run on 2 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    ports();
    closed_port();
    silent_children();
    return tu_finish("port that never accepts, garbage datagrams, closed port, children that never answer");
}
