/* MPI_Comm_call_errhandler under MPI_ERRORS_ARE_FATAL (the default) ends the whole job: rank 0
 * calls it with a code it added (class MPI_ERR_OTHER, with a string); the others block in a
 * receive that nothing satisfies. The case expects a failure; under Plexus the message names the
 * call and the code's string. */
#include "test_util.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (tu_rank == 0) {
        int code;
        CHECK_MPI(MPI_Add_error_code(MPI_ERR_OTHER, &code));
        CHECK_MPI(MPI_Add_error_string(code, "the test's own fatal error"));
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        fprintf(stderr, "%s: FAILED: MPI_Comm_call_errhandler returned under MPI_ERRORS_ARE_FATAL\n", tu_prog);
        return 0; /* exit status 0 fails the case */
    }
    int byte;
    MPI_Recv(&byte, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "%s: FAILED: rank %d received a message nobody sent\n", tu_prog, tu_rank);
    return 0;
}
