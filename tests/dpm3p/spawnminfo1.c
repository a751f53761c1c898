/* spawnminfo1: MPI_Comm_spawn_multiple of two commands, each named by its bare file name and
 * found through its info's "path", each with its own "wdir": every child runs in the directory
 * its command asked for, has the MPI_APPNUM of its command and its command's arguments; the
 * children's world holds both commands' processes. */
#include <limits.h>
#include <libgen.h>

#include "dpm3p.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        char self[PATH_MAX], dir_buf[PATH_MAX], base_buf[PATH_MAX];
        MT_CHECK(realpath(argv[0], self) != NULL, "realpath(%s) failed", argv[0]);
        snprintf(dir_buf, sizeof dir_buf, "%s", self);
        snprintf(base_buf, sizeof base_buf, "%s", self);
        char *dir = dirname(dir_buf), *base = basename(base_buf);
        char *cmds[2] = {base, base};
        char *wdirs[2] = {"/", dir};
        char *args0[] = {"0", "/", NULL}, *args1[] = {"1", dir, NULL};
        char **argvs[2] = {args0, args1};
        int maxprocs[2] = {1, 2}, codes[3] = {-1, -1, -1};
        MPI_Info infos[2];
        for (int i = 0; i < 2; ++i) {
            MPI_Info_create(&infos[i]);
            MPI_Info_set(infos[i], "path", dir);
            MPI_Info_set(infos[i], "wdir", wdirs[i]);
        }
        MT_MPI(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &inter, codes));
        for (int i = 0; i < 2; ++i) MPI_Info_free(&infos[i]);
        for (int i = 0; i < 3; ++i) MT_CHECK(codes[i] == MPI_SUCCESS, "errcodes[%d] = %d", i, codes[i]);
        int rsize = 0;
        MPI_Comm_remote_size(inter, &rsize);
        MT_CHECK(rsize == 3, "remote size %d, expected 3", rsize);
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        return mt_finalize();
    }
    int rank, size, flag = 0, *appnum = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(size == 3, "the children's world has %d processes, expected 3", size);
    MT_CHECK(argc == 3, "argc %d, expected 3", argc);
    if (argc == 3) {
        const int app = atoi(argv[1]);
        MT_CHECK(app == (rank == 0 ? 0 : 1), "rank %d got the arguments of command %d", rank, app);
        MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
        MT_CHECK(flag && *appnum == app, "MPI_APPNUM %s%d, expected %d", flag ? "" : "unset ", flag ? *appnum : -1,
                 app);
        char cwd[PATH_MAX], want[PATH_MAX];
        MT_CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd failed");
        MT_CHECK(realpath(argv[2], want) != NULL, "realpath(%s) failed", argv[2]);
        MT_CHECK(strcmp(cwd, want) == 0, "working directory %s, expected %s (info wdir)", cwd, want);
    }
    mt_report_to_parent(parent);
    MT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return mt_errs ? 1 : 0;
}
