/* Connect/accept between two plexruns (issue 19 item 5): "serve NAME" opens a port, publishes
 * it as NAME and accepts; "connect NAME" (another plexrun) looks it up and connects. Both sides
 * exchange 8 B, 64 KiB and 4 MiB byte for byte with every remote process and disconnect. The
 * connecting side's attempt to publish the name the other plexrun holds fails (MPI_ERR_SERVICE). */
#include "dpm_util.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    CHECK(argc == 3, "usage: dpm_across serve|connect NAME");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int serve = strcmp(argv[1], "serve") == 0;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter;
    if (serve) {
        if (tu_rank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            CHECK_MPI(MPI_Publish_name(argv[2], MPI_INFO_NULL, port));
        }
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    } else {
        if (tu_rank == 0) {
            int tries = 0;
            while (MPI_Lookup_name(argv[2], MPI_INFO_NULL, port) != MPI_SUCCESS) {
                CHECK(++tries < 300, "%s was not published within 30 s", argv[2]);
                struct timespec ts = {0, 100000000};
                nanosleep(&ts, NULL);
            }
        }
        /* The name is the other plexrun's: publishing it here too is refused. */
        if (tu_rank == 0) CHECK_CLASS(MPI_Publish_name(argv[2], MPI_INFO_NULL, port), MPI_ERR_SERVICE);
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    }
    const size_t sizes[] = {8, 65536, 4u << 20};
    for (int i = 0; i < 3; ++i) dpm_exchange(inter, serve ? 0 : 1, sizes[i]);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    if (serve && tu_rank == 0) {
        CHECK_MPI(MPI_Unpublish_name(argv[2], MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Close_port(port));
    }
    return tu_finish("%s: 8 B, 64 KiB, 4 MiB with every process of the other plexrun's job", argv[1]);
}
