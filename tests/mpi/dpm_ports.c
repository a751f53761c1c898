/* Ports and names (tests/mpi/README.md): a parent opens a port, publishes it under a name and
 * spawns a child; the child looks the name up and connects while the parent accepts; both
 * exchange byte for byte over the new inter-communicator and disconnect it (and the spawn's).
 * Then every misuse of the name service and ports, each with its class: lookup of an unknown
 * name (MPI_ERR_NAME), a second publish of one name and unpublish of an unknown one
 * (MPI_ERR_SERVICE), malformed and closed ports, closing a port twice, accept and connect that
 * nobody answers (MPI_ERR_PORT at dpm_base_connect_timeout; a second connector is not kept out by
 * the first one's request), join over an fd that is no socket
 * (MPI_ERR_ARG), disconnect of MPI_COMM_WORLD (MPI_ERR_COMM).
 *
 * Meetings that fail half-way leave nothing in the job manager's store (abandoned).
 *
 *   dpm_ports meet | errors | abandoned */
#include "dpm_util.h"

#include <unistd.h>

static void child_connect(MPI_Comm parent)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* The parents published before spawning us. */
    CHECK_MPI(MPI_Lookup_name("plexus-test-service", MPI_INFO_NULL, port));
    MPI_Comm server;
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &server));
    int remote = 0, parents = 0;
    MPI_Comm_remote_size(server, &remote);
    MPI_Comm_remote_size(parent, &parents);
    CHECK_EQ(remote, parents);
    dpm_exchange(server, 1, 3000);
    CHECK_MPI(MPI_Comm_disconnect(&server));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

static void meet(const char *self)
{
    char port[MPI_MAX_PORT_NAME] = "";
    if (tu_rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME, "port name '%s'", port);
        CHECK_MPI(MPI_Publish_name("plexus-test-service", MPI_INFO_NULL, port));
    }
    char *cargv[] = {"child", NULL};
    MPI_Comm children;
    CHECK_MPI(MPI_Comm_spawn(self, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, MPI_ERRCODES_IGNORE));
    MPI_Comm client;
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &client));
    int remote = 0;
    MPI_Comm_remote_size(client, &remote);
    CHECK_EQ(remote, 2);
    dpm_exchange(client, 0, 3000);
    CHECK_MPI(MPI_Comm_disconnect(&client));
    CHECK_MPI(MPI_Comm_disconnect(&children));
    if (tu_rank == 0) {
        CHECK_MPI(MPI_Unpublish_name("plexus-test-service", MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Close_port(port));
    }
}

static void errors(void)
{
    char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
    CHECK_CLASS(MPI_Lookup_name("plexus-no-such-service", MPI_INFO_NULL, found), MPI_ERR_NAME);
    CHECK_CLASS(MPI_Unpublish_name("plexus-no-such-service", MPI_INFO_NULL, "x"), MPI_ERR_SERVICE);
    CHECK_CLASS(MPI_Lookup_name(NULL, MPI_INFO_NULL, found), MPI_ERR_ARG);
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    char name[64];
    snprintf(name, sizeof name, "plexus-errors-%d", tu_rank);
    CHECK_MPI(MPI_Publish_name(name, MPI_INFO_NULL, port));
    CHECK_CLASS(MPI_Publish_name(name, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    CHECK_MPI(MPI_Lookup_name(name, MPI_INFO_NULL, found));
    CHECK(strcmp(found, port) == 0, "lookup gave '%s', published '%s'", found, port);
    CHECK_MPI(MPI_Unpublish_name(name, MPI_INFO_NULL, port));
    CHECK_CLASS(MPI_Lookup_name(name, MPI_INFO_NULL, found), MPI_ERR_NAME);

    MPI_Comm c = MPI_COMM_WORLD;
    /* Malformed ports, at the root of MPI_COMM_SELF. */
    CHECK_CLASS(MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK(c == MPI_COMM_NULL, "a failed connect left newcomm set");
    CHECK_CLASS(MPI_Comm_connect(NULL, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK_CLASS(MPI_Comm_accept("plexus-port:x:0:1:zz", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    /* Accept on a port this process did not open; accept and connect nobody answers. */
    char other[MPI_MAX_PORT_NAME];
    snprintf(other, sizeof other, "%s", port);
    other[strlen(other) - 1] = other[strlen(other) - 1] == '0' ? '1' : '0';
    CHECK_CLASS(MPI_Comm_accept(other, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    double t0 = MPI_Wtime();
    CHECK_CLASS(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK(MPI_Wtime() - t0 < 30, "accept took %.1f s with a 1 s timeout", MPI_Wtime() - t0);
    CHECK_CLASS(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    /* The request of the connect nobody accepted was taken back: a second connector finds the
     * port free (nobody accepts it either), not busy with the first one's request for ever. */
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_PORT);
    MPI_Error_string(rc, text, &len);
    CHECK(strstr(text, "nobody accepted") != NULL, "the second connect failed otherwise: %s", text);
    CHECK_MPI(MPI_Close_port(port));
    CHECK_CLASS(MPI_Close_port(port), MPI_ERR_PORT);
    /* A closed port: refused at once, not after the timeout. */
    CHECK_CLASS(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);

    int pipefd[2];
    CHECK(pipe(pipefd) == 0, "pipe failed");
    CHECK_CLASS(MPI_Comm_join(pipefd[0], &c), MPI_ERR_ARG);
    CHECK(c == MPI_COMM_NULL, "a failed join left intercomm set");
    close(pipefd[0]);
    close(pipefd[1]);
    CHECK_CLASS(MPI_Comm_join(-1, &c), MPI_ERR_ARG);
    MPI_Comm world = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Comm_disconnect(&world), MPI_ERR_COMM);
    MPI_Comm none = MPI_COMM_NULL;
    CHECK_CLASS(MPI_Comm_disconnect(&none), MPI_ERR_COMM);
    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "a job nobody spawned has a parent");
}

/* Meetings that fail half-way (run with a short dpm_base_connect_timeout and PLEXRUN_TRACE=1 by
 * dpm_leftovers.sh, which checks that plexrun's store is empty at the end): a spawned program
 * that is no MPI program never answers the handshake (MPI_ERR_SPAWN, every errcode set); a
 * connect that nobody accepts (MPI_ERR_PORT). Each side takes back what it published. */
static void abandoned(void)
{
    char *cargv[] = {NULL};
    int codes[2] = {-7, -7};
    MPI_Comm c = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Comm_spawn("/bin/true", cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c, codes), MPI_ERR_SPAWN);
    CHECK(c == MPI_COMM_NULL, "a failed spawn left intercomm set");
    for (int i = 0; i < 2; ++i) CHECK_EQ(tu_error_class(codes[i]), MPI_ERR_SPAWN);
    if (tu_rank == 0) {
        char port[MPI_MAX_PORT_NAME];
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_CLASS(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
        CHECK_MPI(MPI_Close_port(port));
    }
}

int main(int argc, char **argv)
{
    static char self[4096];
    const char *me = realpath(argv[0], self) ? self : argv[0];
    tu_init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        child_connect(parent);
        MPI_Finalize();
        return 0;
    }
    CHECK(argc == 2, "usage: dpm_ports meet | errors | abandoned");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (strcmp(argv[1], "meet") == 0) meet(me);
    else if (strcmp(argv[1], "errors") == 0) errors();
    else if (strcmp(argv[1], "abandoned") == 0) abandoned();
    else CHECK(0, "unknown mode %s", argv[1]);
    return tu_finish("%s", argv[1]);
}
