/* Attribute callbacks run exactly once, counted per key and per value: set, get, replace (the
 * old value's delete callback), delete; MPI_Comm_dup runs every copy callback once and keeps the
 * attributes whose callback set flag (MPI_COMM_DUP_FN: the same value; MPI_COMM_NULL_COPY_FN:
 * not copied; a user callback: its new value); MPI_Comm_free runs the delete callback of every
 * attribute left; MPI_Comm_free_keyval leaves the key working for the attributes that use it
 * (copied and deleted later) and the handle MPI_KEYVAL_INVALID; a failing copy callback makes
 * MPI_Comm_dup fail with its code, and the attributes it had copied are deleted again; a failing
 * delete callback's code is what MPI_Comm_delete_attr returns. The MPI-1 names (Keyval_create,
 * Attr_put/get/delete, Keyval_free) do the same. At MPI_Finalize, MPI_COMM_SELF's attributes are
 * deleted once each, in the reverse order of setting (checked after MPI_Finalize returns). */
#include "attr_util.h"

/* The MPI-1 names are tested on purpose. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

/* What one key's callbacks saw. */
struct counts {
    int copies, deletes;
    void *last_deleted;
    MPI_Comm last_comm; /* the communicator of the last callback */
    int fail_with;      /* a callback returns this when non-zero */
};

static int count_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    struct counts *c = (struct counts *)extra;
    ++c->copies;
    c->last_comm = comm;
    if (c->fail_with) {
        *flag = 0;
        return c->fail_with;
    }
    *(void **)out = (void *)((intptr_t)in + 1000); /* a new value, so the copy is told from the original */
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    struct counts *c = (struct counts *)extra;
    ++c->deletes;
    c->last_deleted = value;
    c->last_comm = comm;
    return c->fail_with;
}

/* Counting stand-ins for MPI_COMM_DUP_FN and MPI_COMM_NULL_COPY_FN (which may be null pointers,
 * as in MPICH, so they are not called from here); the real ones are used directly too. */
static int dup_copy_count(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    ++((struct counts *)extra)->copies;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int null_copy_count(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)in;
    (void)out;
    ++((struct counts *)extra)->copies;
    *flag = 0;
    return MPI_SUCCESS;
}

/* Attribute values: distinct integers in pointers, never dereferenced. */
static void *value(int i) { return (void *)(intptr_t)(0x10000 * i); }
static void *value_plus(int i, int n) { return (void *)(intptr_t)(0x10000 * i + n); }

static void expect_attr_at(const char *file, int line, MPI_Comm comm, int keyval, int want_flag,
                           void *want)
{
    void *got = NULL;
    int flag = -1;
    int rc = MPI_Comm_get_attr(comm, keyval, &got, &flag);
    if (rc != MPI_SUCCESS || flag != want_flag || (flag && got != want))
        tu_fail(file, line, "MPI_Comm_get_attr",
                "keyval %d: returned %d, flag %d, value %p; expected flag %d, value %p", keyval,
                rc, flag, got, want_flag, want);
}
#define EXPECT_ATTR(comm, k, flag, v) expect_attr_at(__FILE__, __LINE__, (comm), (k), (flag), (v))

static void set_get_replace_delete(MPI_Comm comm)
{
    struct counts c = {0};
    int k;
    CHECK_MPI(MPI_Comm_create_keyval(count_copy, count_delete, &k, &c));
    EXPECT_ATTR(comm, k, 0, NULL);
    CHECK_MPI(MPI_Comm_set_attr(comm, k, value(1)));
    EXPECT_ATTR(comm, k, 1, value(1));
    CHECK_EQ(c.deletes, 0);
    CHECK_MPI(MPI_Comm_set_attr(comm, k, value(2))); /* replace: value 1 is deleted */
    CHECK_EQ(c.deletes, 1);
    CHECK(c.last_deleted == value(1), "replace deleted %p, expected %p", c.last_deleted, value(1));
    CHECK(c.last_comm == comm, "the delete callback got another communicator");
    EXPECT_ATTR(comm, k, 1, value(2));
    CHECK_MPI(MPI_Comm_delete_attr(comm, k));
    CHECK_EQ(c.deletes, 2);
    CHECK(c.last_deleted == value(2), "delete deleted %p, expected %p", c.last_deleted, value(2));
    EXPECT_ATTR(comm, k, 0, NULL);
    CHECK_EQ(c.copies, 0);
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK_EQ(k, MPI_KEYVAL_INVALID);
    CHECK_EQ(c.deletes, 2);
}

static void dup_and_free(void)
{
    struct counts user = {0}, dupfn = {0}, nullfn = {0};
    int ku, kd, kn;
    CHECK_MPI(MPI_Comm_create_keyval(count_copy, count_delete, &ku, &user));
    CHECK_MPI(MPI_Comm_create_keyval(dup_copy_count, count_delete, &kd, &dupfn));
    CHECK_MPI(MPI_Comm_create_keyval(null_copy_count, count_delete, &kn, &nullfn));
    int kpd, kpn; /* the predefined callbacks themselves */
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kpd, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kpn, NULL));
    MPI_Comm a, b;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_attr(a, ku, value(1)));
    CHECK_MPI(MPI_Comm_set_attr(a, kd, value(2)));
    CHECK_MPI(MPI_Comm_set_attr(a, kn, value(3)));
    CHECK_MPI(MPI_Comm_set_attr(a, kpd, value(4)));
    CHECK_MPI(MPI_Comm_set_attr(a, kpn, value(5)));

    CHECK_MPI(MPI_Comm_dup(a, &b));
    CHECK_EQ(user.copies, 1);
    CHECK_EQ(dupfn.copies, 1);
    CHECK_EQ(nullfn.copies, 1);
    CHECK(user.last_comm == a, "the copy callback got another communicator than the one dup'd");
    CHECK_EQ(user.deletes + dupfn.deletes + nullfn.deletes, 0);
    EXPECT_ATTR(b, ku, 1, value_plus(1, 1000));
    EXPECT_ATTR(b, kd, 1, value(2));
    EXPECT_ATTR(b, kn, 0, NULL);
    EXPECT_ATTR(b, kpd, 1, value(4));
    EXPECT_ATTR(b, kpn, 0, NULL);
    EXPECT_ATTR(a, ku, 1, value(1)); /* the original is untouched */

    /* A freed key keeps working for its attributes: copied again, deleted later. */
    int ku_saved = ku;
    CHECK_MPI(MPI_Comm_free_keyval(&ku));
    CHECK_EQ(ku, MPI_KEYVAL_INVALID);
    EXPECT_ATTR(b, ku_saved, 1, value_plus(1, 1000));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(b, &c));
    CHECK_EQ(user.copies, 2);
    CHECK_EQ(dupfn.copies, 2);

    CHECK_MPI(MPI_Comm_free(&b));
    CHECK(b == MPI_COMM_NULL, "MPI_Comm_free did not set the handle to MPI_COMM_NULL");
    CHECK_EQ(user.deletes, 1);
    CHECK(user.last_deleted == value_plus(1, 1000), "free deleted %p", user.last_deleted);
    CHECK_EQ(dupfn.deletes, 1);
    CHECK_EQ(nullfn.deletes, 0);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_EQ(user.deletes, 2);
    CHECK(user.last_deleted == value_plus(1, 2000), "free deleted %p", user.last_deleted);
    CHECK_EQ(dupfn.deletes, 2);
    CHECK(dupfn.last_deleted == value(2), "MPI_COMM_DUP_FN's copy was %p", dupfn.last_deleted);
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_EQ(user.deletes, 3);
    CHECK(user.last_deleted == value(1), "free deleted %p", user.last_deleted);
    CHECK_EQ(dupfn.deletes, 3);
    CHECK_EQ(nullfn.deletes, 1);
    CHECK_EQ(user.copies + dupfn.copies + nullfn.copies, 2 + 2 + 1);
    CHECK_MPI(MPI_Comm_free_keyval(&kd));
    CHECK_MPI(MPI_Comm_free_keyval(&kn));
    CHECK_MPI(MPI_Comm_free_keyval(&kpd));
    CHECK_MPI(MPI_Comm_free_keyval(&kpn));
#ifdef PLEXUS_MPI
    /* Plexus's predefined callbacks are functions a program may call. */
    void *out = NULL;
    int flag = -1;
    CHECK_MPI(MPI_COMM_DUP_FN(MPI_COMM_WORLD, 0, NULL, value(7), &out, &flag));
    CHECK(flag == 1 && out == value(7), "MPI_COMM_DUP_FN: flag %d, value %p", flag, out);
    CHECK_MPI(MPI_COMM_NULL_COPY_FN(MPI_COMM_WORLD, 0, NULL, value(7), &out, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_COMM_NULL_DELETE_FN(MPI_COMM_WORLD, 0, value(7), NULL));
#endif
}

static void failing_callbacks(void)
{
    int code;
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_OTHER, &code));
    struct counts good = {0}, bad = {0};
    bad.fail_with = code;
    int kg, kb;
    CHECK_MPI(MPI_Comm_create_keyval(count_copy, count_delete, &kg, &good));
    CHECK_MPI(MPI_Comm_create_keyval(count_copy, count_delete, &kb, &bad));
    MPI_Comm a, b = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_attr(a, kg, value(1)));
    CHECK_MPI(MPI_Comm_set_attr(a, kb, value(2)));

    /* The order of copying is MPI's choice: whatever was copied before the failure is deleted. */
    int rc = MPI_Comm_dup(a, &b);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_OTHER);
#ifdef PLEXUS_MPI
    CHECK_EQ(rc, code); /* Open MPI returns the class */
#endif
    CHECK(b == MPI_COMM_NULL, "a failed MPI_Comm_dup returned a communicator");
    CHECK_EQ(bad.copies, 1);
    CHECK_EQ(good.deletes, good.copies);
    CHECK_EQ(bad.deletes, 0);

    /* A failing delete callback: its code comes back. */
    rc = MPI_Comm_delete_attr(a, kb);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_OTHER);
#ifdef PLEXUS_MPI
    CHECK_EQ(rc, code);
#endif
    CHECK_EQ(bad.deletes, 1);
    bad.fail_with = 0;
    int flag;
    void *v;
    CHECK_MPI(MPI_Comm_get_attr(a, kb, &v, &flag));
    if (flag) /* MPI leaves open whether the value stays; Plexus keeps it */
        CHECK_MPI(MPI_Comm_delete_attr(a, kb));
#ifdef PLEXUS_MPI
    CHECK_EQ(flag, 1);
#endif
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_EQ(good.deletes, good.copies + 1);
    CHECK_MPI(MPI_Comm_free_keyval(&kg));
    CHECK_MPI(MPI_Comm_free_keyval(&kb));
}

static void mpi1_names(void)
{
    struct counts c = {0};
    int k;
    CHECK_MPI(MPI_Keyval_create(count_copy, count_delete, &k, &c));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k, value(5)));
    void *got = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k, &got, &flag));
    CHECK(flag && got == value(5), "MPI_Attr_get: flag %d, value %p", flag, got);
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k, value(6)));
    CHECK_EQ(c.deletes, 1);
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k));
    CHECK_EQ(c.deletes, 2);
    CHECK_MPI(MPI_Keyval_free(&k));
    CHECK_EQ(k, MPI_KEYVAL_INVALID);
}

static void misuse(void)
{
    int k;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
    int saved = k;
    EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_NULL, k, NULL), MPI_ERR_COMM);
    void *v;
    int flag;
    EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_NULL, k, &v, &flag), MPI_ERR_COMM);
    EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_NULL, k), MPI_ERR_COMM);
    /* Deleting what was never set: an error in Open MPI and Plexus, accepted by MPICH. */
#ifndef MPICH_VERSION
    EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_WORLD, k), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
#endif
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    /* The freed key: no new attributes, no second free (MPICH 4.0 does not check). */
#ifndef MPICH_VERSION
    EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, saved, NULL), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
    EXPECT_ERROR(MPI_Comm_free_keyval(&saved), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
#else
    (void)saved;
#endif
    int invalid = MPI_KEYVAL_INVALID;
    EXPECT_ERROR(MPI_Comm_free_keyval(&invalid), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
    EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL),
                 AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
}

/* ------------------------------------------------------------------ MPI_Finalize */

#define SELF_KEYS 4
static int finalize_order[16], finalize_deleted;
static void *finalize_values[16];

static int record_delete(MPI_Comm comm, int keyval, void *v, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    if (finalize_deleted < 16) {
        finalize_order[finalize_deleted] = keyval;
        finalize_values[finalize_deleted] = v;
    }
    ++finalize_deleted;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 0);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    set_get_replace_delete(MPI_COMM_WORLD);
    set_get_replace_delete(MPI_COMM_SELF);
    dup_and_free();
    failing_callbacks();
    mpi1_names();
    misuse();

    /* Keys set on MPI_COMM_SELF in order 0..3: finalize deletes 3, 2, 1, 0. (Whether replacing
     * a value moves its key to the end is read differently: Open MPI moves it, MPICH and Plexus
     * keep the place of the first setting; so no value is replaced here.) */
    int keys[SELF_KEYS];
    for (int i = 0; i < SELF_KEYS; ++i) {
        CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &keys[i], NULL));
        CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[i], value(i + 1)));
    }
    CHECK_EQ(finalize_deleted, 0);
    /* Freed keys still run at finalize. */
    int freed = keys[SELF_KEYS - 1];
    CHECK_MPI(MPI_Comm_free_keyval(&freed));

    tu_barrier();
    MPI_Finalize();
    int ok = finalize_deleted == SELF_KEYS;
    for (int i = 0; ok && i < SELF_KEYS; ++i) {
        int want = SELF_KEYS - 1 - i;
        ok = finalize_order[i] == keys[want] && finalize_values[i] == value(want + 1);
    }
    if (!ok) {
        fprintf(stderr, "%s: rank %d: FAILED: MPI_Finalize ran %d delete callbacks on MPI_COMM_SELF:",
                tu_prog, tu_rank, finalize_deleted);
        for (int i = 0; i < finalize_deleted && i < 16; ++i)
            fprintf(stderr, " key %d value %p", finalize_order[i], finalize_values[i]);
        fprintf(stderr, "; expected keys %d..%d in reverse order of setting\n", keys[0],
                keys[SELF_KEYS - 1]);
        return 1;
    }
    if (tu_rank == 0)
        printf("%s: PASS: %d ranks: %d error checks, callbacks counted on set/replace/delete/dup/free, "
               "finalize order\n",
               tu_prog, tu_size, au_checks);
    return 0;
}
