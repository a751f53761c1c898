/* spawnargv: the arguments given to MPI_Comm_spawn reach every child exactly (spaces, an '=',
 * a leading dash and a leading blank kept), after the command's own name. */
#include "dpm3p.h"

static char *const kArgs[] = {"a", "b=c", "d e", "-pf", " Ss", NULL};
#define NARGS 5
#define NCHILD 2

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        MT_MPI(MPI_Comm_spawn(argv[0], (char **)kArgs, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                              MPI_ERRCODES_IGNORE));
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        return mt_finalize();
    }
    MT_CHECK(argc == NARGS + 1, "argc %d, expected %d", argc, NARGS + 1);
    for (int i = 0; i < NARGS && i + 1 < argc; ++i)
        MT_CHECK(strcmp(argv[i + 1], kArgs[i]) == 0, "argv[%d] is '%s', expected '%s'", i + 1, argv[i + 1], kArgs[i]);
    mt_report_to_parent(parent);
    MT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return mt_errs ? 1 : 0;
}
