/* The DPM benchmark's command line, for the parent (MODE and options, as run.sh passes them) and
 * for the children (what the parent passes in the spawn's argv). */
#ifndef DPM_BENCH_OPTIONS_H
#define DPM_BENCH_OPTIONS_H

enum { DPM_MAX_COUNTS = 8, DPM_MAX_SIZES = 32 };

typedef enum {
    MODE_SPAWN,
    MODE_RATE,
    MODE_CYCLES,
    MODE_MERGE,
    MODE_LATENCY,
    MODE_INTRA,
    MODE_CONNECT,
    MODE_COLL
} dpm_mode;

typedef struct {
    dpm_mode mode;
    int children[DPM_MAX_COUNTS]; /* --children 1,2,4,8: child counts (spawn; others: the first) */
    int nchildren;
    long sizes[DPM_MAX_SIZES]; /* --sizes 8,1k,4M: message sizes (latency, intra, coll) */
    int nsizes;
    char colls[128]; /* --colls bcast,reduce,...: the collectives of coll */
    int iters;       /* --iters: spawns per point, merges, connects, or round trips of 8 bytes */
    double seconds;  /* --seconds: how long the rate is measured; coll: per point */
    int count;       /* --count: spawn/exchange/disconnect cycles */
    int progress;    /* --progress: a line every this many cycles */
    int stall;       /* --stall: seconds any one wait may take */
    double budget;   /* --budget: seconds after which the cycles stop (0: none) */
} dpm_options;

/* 0 on success; -1 after a message naming the bad argument on stderr. */
int dpm_parse(int argc, char **argv, dpm_options *o);
const char *dpm_mode_name(dpm_mode m);
/* Whether the comma-separated list has name as one of its items. */
int dpm_list_has(const char *list, const char *name);

#endif
