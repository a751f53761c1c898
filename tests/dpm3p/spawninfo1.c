/* spawninfo1: MPI_Comm_spawn with an info holding "wdir" (a directory other than the parent's)
 * and "path" (the program's folder, the command given by its bare name): the children run
 * there, and say so to the parent root, which compares the directories byte for byte. */
#include <limits.h>
#include <libgen.h>

#include "dpm3p.h"

#define NCHILD 2

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        char self[PATH_MAX], dir_buf[PATH_MAX], base_buf[PATH_MAX], want[PATH_MAX];
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MT_CHECK(realpath(argv[0], self) != NULL, "realpath(%s) failed", argv[0]);
        snprintf(dir_buf, sizeof dir_buf, "%s", self);
        snprintf(base_buf, sizeof base_buf, "%s", self);
        char *dir = dirname(dir_buf), *base = basename(base_buf);
        const char *wdir = "/";
        MT_CHECK(realpath(wdir, want) != NULL, "realpath(%s) failed", wdir);
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "wdir", (char *)wdir);
        MPI_Info_set(info, "path", dir);
        int codes[NCHILD] = {-1, -1};
        MT_MPI(MPI_Comm_spawn(base, MPI_ARGV_NULL, NCHILD, info, 0, MPI_COMM_WORLD, &inter, codes));
        MPI_Info_free(&info);
        for (int i = 0; i < NCHILD; ++i) MT_CHECK(codes[i] == MPI_SUCCESS, "errcodes[%d] = %d", i, codes[i]);
        if (rank == 0)
            for (int i = 0; i < NCHILD; ++i) {
                char cwd[PATH_MAX] = "";
                MT_MPI(MPI_Recv(cwd, PATH_MAX, MPI_CHAR, i, 5, inter, MPI_STATUS_IGNORE));
                MT_CHECK(strcmp(cwd, want) == 0, "child %d runs in '%s', expected '%s'", i, cwd, want);
            }
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        return mt_finalize();
    }
    char cwd[PATH_MAX] = "";
    MT_CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd failed");
    MT_MPI(MPI_Send(cwd, (int)strlen(cwd) + 1, MPI_CHAR, 0, 5, parent));
    mt_report_to_parent(parent);
    MT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return mt_errs ? 1 : 0;
}
