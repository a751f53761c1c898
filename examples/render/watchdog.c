/* The deadline as alarm(2): the handler only formats into a static buffer and calls write(2) and
 * _exit(2), which are safe in a signal handler. */
#define _POSIX_C_SOURCE 200809L
#include "watchdog.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char who_[64];
static volatile const char *phase_ = "starting";
static int seconds_;

static void append(char *buf, size_t cap, size_t *len, const char *s) {
    size_t n = strlen(s);
    if (*len + n >= cap) n = cap - 1 - *len;
    memcpy(buf + *len, s, n);
    *len += n;
}

static void expired(int sig) {
    (void)sig;
    char msg[256], num[16];
    size_t len = 0;
    int v = seconds_, k = 0;
    char rev[16];
    do rev[k++] = (char)('0' + v % 10);
    while ((v /= 10) && k < 15);
    for (int i = 0; i < k; ++i) num[i] = rev[k - 1 - i];
    num[k] = '\0';
    append(msg, sizeof msg, &len, "render: ");
    append(msg, sizeof msg, &len, who_);
    append(msg, sizeof msg, &len, ": gave up after ");
    append(msg, sizeof msg, &len, num);
    append(msg, sizeof msg, &len, " s waiting for ");
    append(msg, sizeof msg, &len, (const char *)phase_);
    append(msg, sizeof msg, &len, "\n");
    ssize_t ignored = write(2, msg, len);
    (void)ignored;
    _exit(124);
}

void watchdog_start(int seconds, const char *who) {
    snprintf(who_, sizeof who_, "%s", who);
    seconds_ = seconds;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = expired;
    sigaction(SIGALRM, &sa, NULL);
    alarm((unsigned)seconds);
}

void watchdog_phase(const char *what) {
    phase_ = what;
}
