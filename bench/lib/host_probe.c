/* host_probe: how long one cache line takes to travel between two CPUs, in nanoseconds.
 *
 * On a virtual machine the host can take time from the guest's CPUs without the guest seeing any
 * load: for minutes at a time every implementation's small-message latency triples (the 2-rank
 * Barrier of all three, 0.13 -> 0.40 us). /proc/stat shows nothing then, but a cache line bounced
 * between the two CPUs the 2-rank runs are bound to slows down with the rest, so the runners
 * (bench/lib/common.sh) probe before and after each run and compare with the fastest probe seen.
 *
 * Two threads, pinned to the first two CPUs this process may use, take turns writing a counter
 * into one line; the printed number is the median over BATCHES batches of one-way times, so one
 * preempted batch does not count. Prints "unavailable: <why>" and exits 1 with fewer than two CPUs.
 *
 * usage: host_probe [ROUND_TRIPS_PER_BATCH]   (default 20000; 5 batches)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BATCHES = 5 };

/* Each side spins on its own line, so only the line being handed over moves. */
static _Alignas(64) atomic_long ping;
static _Alignas(64) atomic_long pong;
static long round_trips = 20000;

static int pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *echo(void *cpu) {
  (void)pin_to(*(int *)cpu);  /* unpinned, the echo still answers: the probe only gets noisier */
  long total = round_trips * (BATCHES + 1);  /* the first batch warms up and is not timed */
  for (long i = 1; i <= total; i++) {
    while (atomic_load_explicit(&ping, memory_order_acquire) != i) {
    }
    atomic_store_explicit(&pong, i, memory_order_release);
  }
  return NULL;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc > 1) round_trips = strtol(argv[1], NULL, 10);
  if (round_trips < 100 || round_trips > 10000000) {
    fprintf(stderr, "host_probe: ROUND_TRIPS_PER_BATCH must be 100..10000000, got '%s'\n", argv[1]);
    return 2;
  }
  cpu_set_t allowed;
  int cpus[2], found = 0;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
      if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) {
    printf("unavailable: fewer than two CPUs to bounce a cache line between\n");
    return 1;
  }
  pthread_t peer;
  if (pthread_create(&peer, NULL, echo, &cpus[1]) != 0 || pin_to(cpus[0]) != 0) {
    printf("unavailable: cannot run two threads pinned to CPUs %d and %d\n", cpus[0], cpus[1]);
    return 1;
  }
  double one_way[BATCHES];
  long i = 1;
  for (int b = -1; b < BATCHES; b++) {
    double start = now_ns();
    for (long end = i + round_trips; i < end; i++) {
      atomic_store_explicit(&ping, i, memory_order_release);
      while (atomic_load_explicit(&pong, memory_order_acquire) != i) {
      }
    }
    if (b >= 0) one_way[b] = (now_ns() - start) / (2.0 * round_trips);
  }
  pthread_join(peer, NULL);
  qsort(one_way, BATCHES, sizeof one_way[0], by_value);
  printf("%.1f\n", one_way[BATCHES / 2]);
  return 0;
}
