/* alarm(2) and an async-signal-safe report (write(2) of a preformatted buffer, _exit). */
#define _POSIX_C_SOURCE 200809L
#include "stall.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char who_[16] = "process";
static char message_[256];
static volatile size_t message_len_;

static void expired(int sig) {
    (void)sig;
    ssize_t ignored = write(2, message_, message_len_);
    (void)ignored;
    _exit(124);
}

void stall_init(const char *who) {
    snprintf(who_, sizeof who_, "%s", who);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = expired;
    sigaction(SIGALRM, &sa, NULL);
}

void stall_arm(int seconds, const char *what, long cycle) {
    int n;
    alarm(0);
    if (cycle >= 0)
        n = snprintf(message_, sizeof message_,
                     "dpm_bench: %s (pid %ld): HUNG: no progress for %d s in %s, cycle %ld\n", who_,
                     (long)getpid(), seconds, what, cycle);
    else
        n = snprintf(message_, sizeof message_,
                     "dpm_bench: %s (pid %ld): HUNG: no progress for %d s in %s\n", who_,
                     (long)getpid(), seconds, what);
    message_len_ = n < 0 ? 0 : (size_t)n < sizeof message_ ? (size_t)n : sizeof message_ - 1;
    alarm((unsigned)seconds);
}

void stall_disarm(void) {
    alarm(0);
}
