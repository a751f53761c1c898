/* Shared by the MPI point-to-point tests (tests/mpi/README.md): checks that say what differed
 * and abort the job, a barrier built from point-to-point messages, deterministic data patterns
 * and a byte-for-byte verifier. Header-only (static inline), so every test is one .c file that
 * also builds with Open MPI's and MPICH's mpicc. Uses the MPI-2.2 C API only. */
#ifndef PLEXUS_TESTS_MPI_TEST_UTIL_H
#define PLEXUS_TESTS_MPI_TEST_UTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* nanosleep, also under -std=c99 */
#endif

#include <mpi.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Tags at or above TU_TAG_RESERVED belong to this header; MPI guarantees tags up to 32767. */
#define TU_TAG_RESERVED 32700
#define TU_TAG_BARRIER 32700

/* Longest any wait loop of a test may spin before it calls the wait a hang and fails. */
#define TU_HANG_SECONDS 60.0

static const char *tu_prog = "?";
static int tu_rank = -1;
static int tu_size = -1;

#if defined(__GNUC__)
#define TU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TU_NORETURN __attribute__((noreturn))
#else
#define TU_PRINTF(f, a)
#define TU_NORETURN
#endif
/* The pattern code runs over every byte the tests move: optimized even in -O0 (ASan) builds,
 * which would otherwise spend most of their time here rather than in MPI. */
#if defined(__GNUC__) && !defined(__clang__)
#define TU_HOT __attribute__((optimize("O2")))
#else
#define TU_HOT
#endif

/* Reports one failed check on stderr and ends the whole job: a test never continues past a
 * wrong result, so the first message is the one that matters. */
static inline TU_NORETURN TU_PRINTF(4, 5) void tu_fail(const char *file, int line,
                                                       const char *expr, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "%s: rank %d of %d: FAILED at %s:%d: %s: %s\n", tu_prog, tu_rank, tu_size,
            file, line, expr, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort(); /* MPI_Abort does not return; this keeps the compiler and the reader sure of it */
}

/* CHECK(condition, printf-format, args...): the format says what was expected and what came. */
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond))                                                                              \
            tu_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                                      \
    } while (0)

/* CHECK_EQ(got, want): integer equality, printing both values. */
#define CHECK_EQ(got, want)                                                                       \
    do {                                                                                          \
        long long tu_got_ = (long long)(got), tu_want_ = (long long)(want);                       \
        if (tu_got_ != tu_want_)                                                                  \
            tu_fail(__FILE__, __LINE__, #got " == " #want, "got %lld, expected %lld", tu_got_,    \
                    tu_want_);                                                                    \
    } while (0)

static inline const char *tu_error_text(int code, char *buf)
{
    int len = 0;
    buf[0] = '\0';
    if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS || len <= 0)
        snprintf(buf, MPI_MAX_ERROR_STRING, "(no error string for code %d)", code);
    return buf;
}

/* CHECK_MPI(call): the call returned MPI_SUCCESS (only meaningful under MPI_ERRORS_RETURN; under
 * the default handler a failing call already ended the job). */
#define CHECK_MPI(call)                                                                           \
    do {                                                                                          \
        int tu_rc_ = (call);                                                                      \
        if (tu_rc_ != MPI_SUCCESS) {                                                              \
            char tu_text_[MPI_MAX_ERROR_STRING];                                                  \
            tu_fail(__FILE__, __LINE__, #call, "returned %d (%s), expected MPI_SUCCESS", tu_rc_,  \
                    tu_error_text(tu_rc_, tu_text_));                                             \
        }                                                                                         \
    } while (0)

static inline int tu_error_class(int code)
{
    int cls = -1;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS)
        return -1;
    return cls;
}

/* CHECK_CLASS(call, class): the call failed with an error of that class. */
#define CHECK_CLASS(call, want)                                                                   \
    do {                                                                                          \
        int tu_rc_ = (call);                                                                      \
        int tu_cls_ = tu_error_class(tu_rc_);                                                     \
        if (tu_rc_ == MPI_SUCCESS || tu_cls_ != (want)) {                                         \
            char tu_text_[MPI_MAX_ERROR_STRING];                                                  \
            tu_fail(__FILE__, __LINE__, #call,                                                    \
                    "returned %d of class %d (%s), expected class " #want " (%d)", tu_rc_,        \
                    tu_cls_, tu_error_text(tu_rc_, tu_text_), (want));                            \
        }                                                                                         \
    } while (0)

/* ------------------------------------------------------------------ start, end, waiting */

static inline void tu_name(const char *argv0)
{
    const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
    tu_prog = slash ? slash + 1 : (argv0 ? argv0 : "?");
}

/* MPI_Init plus the bookkeeping every check message uses. */
static inline void tu_init(int *argc, char ***argv)
{
    tu_name(*argc > 0 ? (*argv)[0] : NULL);
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &tu_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &tu_size);
}

/* The test's design needs between min and max ranks (max 0: no upper bound). */
static inline void tu_require_ranks(int min, int max)
{
    CHECK(tu_size >= min && (max == 0 || tu_size <= max),
          "this test runs with %d..%d ranks, not %d (run it with -n %d)", min, max, tu_size, min);
}

static inline void tu_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        continue;
}

/* A dissemination barrier from MPI_Sendrecv on TU_TAG_BARRIER: ceil(log2 n) rounds. Tests that
 * post ANY_TAG receives must make sure no peer can be in here while those are pending. */
static inline void tu_barrier(void)
{
    for (int dist = 1; dist < tu_size; dist *= 2) {
        int to = (tu_rank + dist) % tu_size;
        int from = (tu_rank - dist + tu_size) % tu_size;
        CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, to, TU_TAG_BARRIER, NULL, 0, MPI_BYTE, from,
                               TU_TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

/* Ends a test that passed: a barrier (so rank 0 speaks for everyone), rank 0's one-line
 * summary, MPI_Finalize, exit status 0. */
static inline TU_PRINTF(1, 2) int tu_finish(const char *fmt, ...)
{
    tu_barrier();
    if (tu_rank == 0) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        printf("%s: PASS: %d ranks: %s\n", tu_prog, tu_size, msg);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}

/* Seconds left before a wait loop counts as hung. */
static inline double tu_deadline(void) { return MPI_Wtime() + TU_HANG_SECONDS; }

/* MPI_Test until the request completes; a hang becomes a failure naming the request. */
#define TU_TEST_UNTIL_DONE(req, status, what)                                                     \
    do {                                                                                          \
        double tu_end_ = tu_deadline();                                                           \
        int tu_flag_ = 0;                                                                         \
        for (;;) {                                                                                \
            CHECK_MPI(MPI_Test((req), &tu_flag_, (status)));                                      \
            if (tu_flag_)                                                                         \
                break;                                                                            \
            CHECK(MPI_Wtime() < tu_end_, "%s: not complete after %.0f s", (what),                 \
                  TU_HANG_SECONDS);                                                               \
        }                                                                                         \
    } while (0)

/* ------------------------------------------------------------------ memory */

static inline void *tu_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(p != NULL, "out of memory allocating %zu bytes", n);
    return p;
}

/* ------------------------------------------------------------------ data patterns */

/* splitmix64's finalizer: every input bit moves every output bit. */
static inline TU_HOT uint64_t tu_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The seed of the data one message carries: source, destination, size and iteration all change
 * it, so data delivered to the wrong receive, from the wrong sender, or stale from an earlier
 * iteration does not verify. */
static inline uint64_t tu_seed(int src, int dst, size_t size, long iter)
{
    uint64_t s = tu_mix64((uint64_t)(uint32_t)src);
    s = tu_mix64(s ^ ((uint64_t)(uint32_t)dst << 1));
    s = tu_mix64(s ^ (uint64_t)size);
    return tu_mix64(s ^ (uint64_t)iter);
}

/* Byte i of a pattern: byte (i % 8) of the in-memory word (i / 8), so the data depends on its
 * offset too. Whole words are stored at once: this runs over every byte the tests move. */
static inline TU_HOT void tu_pattern_at(unsigned char *out, size_t offset, size_t n, uint64_t seed)
{
    size_t i = 0;
    while (i < n) {
        size_t pos = offset + i;
        uint64_t word = tu_mix64(seed ^ (uint64_t)(pos / 8) * 0xd6e8feb86659fd93ULL);
        size_t in_word = pos % 8;
        if (in_word == 0 && n - i >= 8) {
            memcpy(out + i, &word, 8);
            i += 8;
            continue;
        }
        unsigned char bytes[8];
        memcpy(bytes, &word, 8);
        for (; in_word < 8 && i < n; ++in_word, ++i)
            out[i] = bytes[in_word];
    }
}

static inline void tu_fill(void *buf, size_t n, uint64_t seed)
{
    tu_pattern_at((unsigned char *)buf, 0, n, seed);
}

/* Offset of the first byte of buf that differs from the pattern, or n when all match. Compares
 * a chunk at a time with memcmp, which keeps 16 MiB checks cheap even under ASan at -O0. */
static inline TU_HOT size_t tu_first_difference(const void *buf, size_t n, uint64_t seed)
{
    const unsigned char *p = (const unsigned char *)buf;
    unsigned char expect[4096];
    for (size_t off = 0; off < n; off += sizeof expect) {
        size_t len = n - off < sizeof expect ? n - off : sizeof expect;
        tu_pattern_at(expect, off, len, seed);
        if (memcmp(p + off, expect, len) != 0) {
            size_t i = 0;
            while (p[off + i] == expect[i])
                ++i;
            return off + i;
        }
    }
    return n;
}

/* Verifies buf against the pattern; a mismatch fails with the first differing offset, both
 * bytes, and how many bytes differ in all. */
static inline void tu_verify_at(const char *file, int line, const void *buf, size_t n,
                                uint64_t seed, const char *what)
{
    size_t first = tu_first_difference(buf, n, seed);
    if (first == n)
        return;
    const unsigned char *p = (const unsigned char *)buf;
    size_t differing = 0;
    for (size_t off = first; off < n; ++off) {
        unsigned char e;
        tu_pattern_at(&e, off, 1, seed);
        differing += p[off] != e;
    }
    unsigned char e;
    tu_pattern_at(&e, first, 1, seed);
    tu_fail(file, line, what,
            "data differs from byte %zu of %zu on: got 0x%02x, expected 0x%02x (%zu bytes differ)",
            first, n, p[first], e, differing);
}

#define VERIFY(buf, n, seed, what) tu_verify_at(__FILE__, __LINE__, (buf), (n), (seed), (what))

/* Guard bytes around receive buffers: nothing may be written outside the buffer. */
#define TU_GUARD_BYTE 0xa7
#define TU_GUARD_SIZE 64

static inline void tu_check_guard_at(const char *file, int line, const void *guard, size_t n,
                                     const char *what)
{
    const unsigned char *p = (const unsigned char *)guard;
    for (size_t i = 0; i < n; ++i)
        if (p[i] != TU_GUARD_BYTE)
            tu_fail(file, line, what, "guard byte %zu was overwritten: 0x%02x, expected 0x%02x", i,
                    p[i], TU_GUARD_BYTE);
}

#define CHECK_GUARD(guard, n, what) tu_check_guard_at(__FILE__, __LINE__, (guard), (n), (what))

/* ------------------------------------------------------------------ messages with a header */

/* Tests of matching order put who sent the message, its sequence number and tag up front; the
 * rest is a pattern seeded by (src, dst, size, seq). Such messages are at least this long. */
#define TU_HEADER_SIZE 24
#define TU_MAGIC 0x504c5853u /* "PLXS" */

struct tu_header {
    uint32_t magic;
    int32_t src, dst, seq, tag;
    uint32_t size;
};

static inline void tu_msg_write(void *buf, size_t size, int src, int dst, int seq, int tag)
{
    struct tu_header h = {TU_MAGIC, src, dst, seq, tag, (uint32_t)size};
    CHECK(size >= TU_HEADER_SIZE, "a message with a header needs %d bytes, got %zu",
          TU_HEADER_SIZE, size);
    memcpy(buf, &h, sizeof h);
    tu_fill((unsigned char *)buf + TU_HEADER_SIZE, size - TU_HEADER_SIZE,
            tu_seed(src, dst, size, seq));
}

/* Reads and verifies a received message of `size` bytes addressed to this rank. */
static inline struct tu_header tu_msg_read_at(const char *file, int line, const void *buf,
                                              size_t size, const char *what)
{
    struct tu_header h;
    if (size < TU_HEADER_SIZE)
        tu_fail(file, line, what, "message of %zu bytes is shorter than its header", size);
    memcpy(&h, buf, sizeof h);
    if (h.magic != TU_MAGIC || h.dst != tu_rank || h.size != size)
        tu_fail(file, line, what,
                "bad header: magic 0x%08x (expected 0x%08x), dst %d (expected %d), size %u "
                "(received %zu)",
                h.magic, TU_MAGIC, h.dst, tu_rank, h.size, size);
    tu_verify_at(file, line, (const unsigned char *)buf + TU_HEADER_SIZE, size - TU_HEADER_SIZE,
                 tu_seed(h.src, h.dst, size, h.seq), what);
    return h;
}

#define MSG_READ(buf, size, what) tu_msg_read_at(__FILE__, __LINE__, (buf), (size), (what))

/* ------------------------------------------------------------------ status */

static inline int tu_count(const MPI_Status *st)
{
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &count));
    return count;
}

/* CHECK_STATUS(status, source, tag, count in bytes) */
#define CHECK_STATUS(st, src, tag, bytes)                                                         \
    do {                                                                                          \
        const MPI_Status *tu_st_ = (st);                                                          \
        int tu_n_ = tu_count(tu_st_);                                                             \
        if (tu_st_->MPI_SOURCE != (src) || tu_st_->MPI_TAG != (tag) || tu_n_ != (int)(bytes))     \
            tu_fail(__FILE__, __LINE__, "status",                                                 \
                    "MPI_SOURCE %d, MPI_TAG %d, count %d; expected %d, %d, %d",                   \
                    tu_st_->MPI_SOURCE, tu_st_->MPI_TAG, tu_n_, (int)(src), (int)(tag),          \
                    (int)(bytes));                                                                \
    } while (0)

/* An empty status (MPI-2.2 3.7.3): source ANY_SOURCE, tag ANY_TAG, count 0, not cancelled. */
#define CHECK_EMPTY_STATUS(st, what)                                                              \
    do {                                                                                          \
        const MPI_Status *tu_st_ = (st);                                                          \
        int tu_cancelled_ = -1;                                                                   \
        CHECK_MPI(MPI_Test_cancelled(tu_st_, &tu_cancelled_));                                    \
        int tu_n_ = tu_count(tu_st_);                                                             \
        if (tu_st_->MPI_SOURCE != MPI_ANY_SOURCE || tu_st_->MPI_TAG != MPI_ANY_TAG ||             \
            tu_n_ != 0 || tu_cancelled_)                                                          \
            tu_fail(__FILE__, __LINE__, (what),                                                   \
                    "not an empty status: MPI_SOURCE %d, MPI_TAG %d, count %d, cancelled %d; "    \
                    "expected MPI_ANY_SOURCE (%d), MPI_ANY_TAG (%d), 0, 0",                       \
                    tu_st_->MPI_SOURCE, tu_st_->MPI_TAG, tu_n_, tu_cancelled_, MPI_ANY_SOURCE,    \
                    MPI_ANY_TAG);                                                                 \
    } while (0)

/* A status no MPI call has written yet: a field left alone shows up as these values. */
static inline void tu_poison_status(MPI_Status *st)
{
    memset(st, 0x5a, sizeof *st);
    st->MPI_SOURCE = -777;
    st->MPI_TAG = -777;
    st->MPI_ERROR = -777;
}

/* ------------------------------------------------------------------ message sizes */

/* Every size the transfer tests use, 0 B .. max: all powers of two and their neighbours around
 * the places where an implementation switches protocol (fast box, eager, rendezvous, pipeline,
 * single copy). Returns how many were written to out (capacity TU_MAX_SIZES). */
#define TU_MAX_SIZES 96
static inline int tu_sizes(size_t *out, size_t max)
{
    static const size_t odd[] = {3, 7, 13, 100, 1000, 63, 65, 127, 129, 255, 257, 511, 513, 1023,
                                 1025, 2047, 2049, 4095, 4097, 8191, 8193, 16383, 16385, 32767,
                                 32769, 65535, 65537, 131071, 131073, 262143, 262145, 1048575,
                                 1048577, 4194303, 4194305, 16777215};
    int n = 0;
    out[n++] = 0;
    for (size_t p = 1; p <= max && n < TU_MAX_SIZES; p *= 2)
        out[n++] = p;
    for (size_t i = 0; i < sizeof odd / sizeof odd[0] && n < TU_MAX_SIZES; ++i)
        if (odd[i] <= max)
            out[n++] = odd[i];
    /* ascending, so a failure shows the first threshold that broke */
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && out[j - 1] > out[j]; --j) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

#define TU_MAX_MESSAGE ((size_t)16 << 20)

/* The value of a "--name N" option (decimal, 0x hex or 0 octal), or dflt when it is absent. */
static inline size_t tu_option_size(int argc, char **argv, const char *name, size_t dflt)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], name) == 0) {
            char *end = NULL;
            unsigned long long v = strtoull(argv[i + 1], &end, 0);
            CHECK(end && *end == '\0', "option %s needs a number, got '%s'", name, argv[i + 1]);
            return (size_t)v;
        }
    return dflt;
}

#endif
