/* What a process holds, counted from /proc and /dev/shm, for the long spawn / exchange /
 * disconnect loop: a DPM implementation that keeps something per spawn shows it growing. */
#ifndef DPM_BENCH_RESOURCES_H
#define DPM_BENCH_RESOURCES_H

typedef struct {
    int fds;        /* open descriptors of this process */
    int threads;    /* its threads */
    long rss_kb;    /* its resident set (VmRSS) */
    int shm_files;  /* entries in /dev/shm, the machine's (other jobs' too: see the README) */
    int shm_mapped; /* distinct /dev/shm files this process maps */
} dpm_resources;

/* Each count is -1 when it cannot be read. */
void dpm_resources_take(dpm_resources *r);

#endif
