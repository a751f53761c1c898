/* A receiver that stops running while a large message is in flight (descheduled on a busy
 * machine, here: asleep outside MPI). 4 MiB goes as pipelined fragments (below the single-copy
 * threshold), and the fragments rank 0 can have in flight hold less than that, so rank 0's send
 * can only complete before rank 1 is back if the rest goes by single copy, written by rank 0
 * alone. Rank 1 matches the message, then waits outside MPI until rank 0 says (through a file)
 * that its MPI_Wait returned, at most 30 s; then it receives and checks every byte. */
#include "test_util.h"

#include <unistd.h>

#define BYTES ((size_t)4 << 20)
#define AWAY_MS 30000

static void say_sent(const char *flag)
{
    FILE *f = fopen(flag, "w");
    CHECK(f != NULL, "cannot create %s", flag);
    fclose(f);
}

/* True when rank 0 said so within AWAY_MS; no MPI call meanwhile. */
static int away_until_sent(const char *flag)
{
    for (int ms = 0; ms < AWAY_MS; ms += 10) {
        if (access(flag, F_OK) == 0)
            return 1;
        tu_sleep_ms(10);
    }
    return 0;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 2);
    char dir[64] = "/tmp/plexus-stalled-XXXXXX", flag[96];
    if (tu_rank == 0)
        CHECK(mkdtemp(dir) != NULL, "mkdtemp failed");
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    snprintf(flag, sizeof flag, "%s/sent", dir);
    unsigned char *buf = malloc(BYTES);
    CHECK(buf != NULL, "no memory for %zu bytes", BYTES);
    MPI_Request req;
    if (tu_rank == 0) {
        tu_fill(buf, BYTES, tu_seed(0, 1, BYTES, 0));
        MPI_Isend(buf, (int)BYTES, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req);
        tu_barrier(); /* behind the request to send: rank 1 has matched it when it leaves */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        say_sent(flag);
    } else {
        memset(buf, 0xee, BYTES);
        MPI_Irecv(buf, (int)BYTES, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
        tu_barrier();
        int sent_while_away = away_until_sent(flag);
        MPI_Status st;
        MPI_Wait(&req, &st);
        CHECK_STATUS(&st, 0, 1, BYTES);
        VERIFY(buf, BYTES, tu_seed(0, 1, BYTES, 0), "4 MiB received after the receiver was away");
        CHECK(sent_while_away, "rank 0's send did not complete in %d s while rank 1 was away: the "
              "rest of the message waited for the receiver to drain fragments", AWAY_MS / 1000);
    }
    free(buf);
    tu_barrier();
    if (tu_rank == 0) {
        unlink(flag);
        rmdir(dir);
    }
    return tu_finish("4 MiB sent while the receiver was away, every byte in place");
}
