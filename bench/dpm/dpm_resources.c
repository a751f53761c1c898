/* See dpm_resources.h. */
#define _POSIX_C_SOURCE 200809L
#include "dpm_resources.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* Entries of a directory other than "." and ".."; the directory's own descriptor is open while
 * counting /proc/self/fd, so one less there. */
static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) ++n;
    closedir(d);
    return n;
}

static long status_field(const char *name) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, name, n) && line[n] == ':' && sscanf(line + n + 1, "%ld", &v) == 1) break;
    if (f) fclose(f);
    return v;
}

/* Distinct /dev/shm paths in /proc/self/maps (a segment mapped twice counts once: consecutive
 * lines of one mapping repeat its path). */
static int count_mapped_shm(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024], seen[64][256];
    int n = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "/dev/shm/");
        if (!p) continue;
        p[strcspn(p, " \n")] = '\0';
        int known = 0;
        for (int i = 0; i < n && i < 64 && !known; ++i) known = !strncmp(seen[i], p, 255);
        if (known) continue;
        if (n < 64) snprintf(seen[n], sizeof seen[n], "%s", p);
        ++n;
    }
    fclose(f);
    return n;
}

void dpm_resources_take(dpm_resources *r) {
    int fds = count_entries("/proc/self/fd");
    r->fds = fds < 0 ? -1 : fds - 1;
    r->threads = (int)status_field("Threads");
    r->rss_kb = status_field("VmRSS");
    r->shm_files = count_entries("/dev/shm");
    r->shm_mapped = count_mapped_shm();
}
