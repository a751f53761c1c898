/* Attributes cached on datatypes (MPI_Type_create_keyval ... MPI_Type_delete_attr), 1 rank:
 * values set, read, replaced and deleted on derived and predefined types; copy callbacks on
 * MPI_Type_dup (MPI_TYPE_DUP_FN, MPI_TYPE_NULL_COPY_FN, a counting one that changes the value,
 * one that declines) and delete callbacks on MPI_Type_free, MPI_Type_delete_attr and on
 * replacing a value, each counted with the arguments it was given; latest-first deletion; a
 * freed key still serves its attributes; a failing copy callback makes MPI_Type_dup fail with
 * its code (and the copies already made are deleted); a failing delete callback's code comes
 * back and the value stays. Strict checks: a key freed twice, a communicator key used on a
 * type, a type key used on a communicator, a predefined key: each MPI_ERR_KEYVAL naming it. */
#include "datatype_layout.h"

static int copies, deletes, fail_copy, fail_copy_key, fail_delete;
static int deleted_order[8], ndeleted;
static MPI_Datatype last_type;

static int count_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    CHECK(extra == &copies, "copy callback: extra_state %p, expected %p", extra, (void *)&copies);
    last_type = old;
    ++copies;
    if (fail_copy && keyval == fail_copy_key)
        return fail_copy;
    *(void **)out = (char *)in + 1; /* the copy's value: one more */
    *flag = 1;
    return MPI_SUCCESS;
}

static int decline_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval, (void)extra, (void)in, (void)out;
    ++copies;
    *flag = 0;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype t, int keyval, void *value, void *extra)
{
    (void)extra;
    last_type = t;
    ++deletes;
    if (ndeleted < 8)
        deleted_order[ndeleted++] = (int)(size_t)value;
    (void)keyval;
    return fail_delete;
}

static void *get(MPI_Datatype t, int key, int *flag)
{
    void *v = NULL;
    CHECK_MPI(MPI_Type_get_attr(t, key, &v, flag));
    return v;
}

static void set_get_delete(void)
{
    int key, flag;
    CHECK_MPI(MPI_Type_create_keyval(count_copy, count_delete, &key, &copies));
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    get(t, key, &flag);
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Type_set_attr(t, key, (void *)(size_t)10));
    CHECK(get(t, key, &flag) == (void *)(size_t)10 && flag, "value 10 not read back");
    deletes = ndeleted = 0;
    CHECK_MPI(MPI_Type_set_attr(t, key, (void *)(size_t)11)); /* replaces: deletes 10 */
    CHECK(deletes == 1 && deleted_order[0] == 10 && last_type == t, "replacing ran %d delete callbacks", deletes);
    CHECK(get(t, key, &flag) == (void *)(size_t)11, "value 11 not read back");
    CHECK_MPI(MPI_Type_delete_attr(t, key));
    CHECK(deletes == 2 && deleted_order[1] == 11, "MPI_Type_delete_attr ran %d delete callbacks", deletes);
    get(t, key, &flag);
    CHECK_EQ(flag, 0);
    CHECK_ERR(MPI_Type_delete_attr(t, key), MPI_ERR_KEYVAL, "no attribute");
    /* Predefined types carry attributes too. */
    CHECK_MPI(MPI_Type_set_attr(MPI_DOUBLE, key, (void *)(size_t)5));
    CHECK(get(MPI_DOUBLE, key, &flag) == (void *)(size_t)5 && flag, "attribute on MPI_DOUBLE not read back");
    get(MPI_INT, key, &flag);
    CHECK(flag == 0, "MPI_INT has MPI_DOUBLE's attribute");
    CHECK_MPI(MPI_Type_delete_attr(MPI_DOUBLE, key));
    /* A failing delete callback: its code comes back, the value stays. */
    CHECK_MPI(MPI_Type_set_attr(t, key, (void *)(size_t)12));
    int code;
    CHECK_MPI(MPI_Add_error_class(&code));
    fail_delete = code;
    int rc = MPI_Type_delete_attr(t, key);
    CHECK(rc == code, "a failing delete callback: MPI_Type_delete_attr returned %d, expected %d", rc, code);
    CHECK(get(t, key, &flag) == (void *)(size_t)12 && flag, "the value went although its delete failed");
    fail_delete = 0;
    deletes = ndeleted = 0;
    CHECK_MPI(MPI_Type_free(&t)); /* deletes 12 */
    CHECK(deletes == 1 && deleted_order[0] == 12, "MPI_Type_free ran %d delete callbacks", deletes);
    CHECK_MPI(MPI_Type_free_keyval(&key));
    CHECK_EQ(key, MPI_KEYVAL_INVALID);
    dl_checks += 4;
}

static void dup_and_free(void)
{
    int counting, dupfn, nullcopy, declining;
    CHECK_MPI(MPI_Type_create_keyval(count_copy, count_delete, &counting, &copies));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_delete, &dupfn, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &nullcopy, NULL));
    CHECK_MPI(MPI_Type_create_keyval(decline_copy, NULL, &declining, NULL));
    MPI_Datatype t, d;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_set_attr(t, counting, (void *)(size_t)100));
    CHECK_MPI(MPI_Type_set_attr(t, dupfn, (void *)(size_t)200));
    CHECK_MPI(MPI_Type_set_attr(t, nullcopy, (void *)(size_t)300));
    CHECK_MPI(MPI_Type_set_attr(t, declining, (void *)(size_t)400));
    copies = 0;
    CHECK_MPI(MPI_Type_dup(t, &d));
    CHECK(copies == 2 && last_type == t, "MPI_Type_dup ran %d counted copy callbacks, expected 2", copies);
    int flag;
    CHECK(get(d, counting, &flag) == (void *)(size_t)101 && flag, "the counting copy's value is not 101");
    CHECK(get(d, dupfn, &flag) == (void *)(size_t)200 && flag, "MPI_TYPE_DUP_FN did not copy the value");
    get(d, nullcopy, &flag);
    CHECK(flag == 0, "MPI_TYPE_NULL_COPY_FN copied the attribute");
    get(d, declining, &flag);
    CHECK(flag == 0, "a copy callback that set flag 0 still copied the attribute");
    /* The original keeps its own values. */
    CHECK(get(t, counting, &flag) == (void *)(size_t)100, "the original's value changed");
    /* A freed key still serves the attributes that use it. */
    CHECK_MPI(MPI_Type_free_keyval(&counting));
    int stale = dupfn;
    deletes = ndeleted = 0;
    CHECK_MPI(MPI_Type_free(&d)); /* latest first: dupfn's 200, then counting's 101 */
    CHECK(deletes == 2 && deleted_order[0] == 200 && deleted_order[1] == 101,
          "freeing the dup: %d deletes, order %d, %d (expected 200, 101)", deletes, deleted_order[0],
          deleted_order[1]);
    /* A failing copy callback: MPI_Type_dup fails with its code and makes nothing; the copies
     * made before it are deleted again. */
    int code;
    CHECK_MPI(MPI_Add_error_class(&code));
    int late;
    CHECK_MPI(MPI_Type_create_keyval(count_copy, count_delete, &late, &copies));
    CHECK_MPI(MPI_Type_set_attr(t, late, (void *)(size_t)500)); /* after dupfn's: copied after it */
    deletes = ndeleted = 0;
    copies = 0;
    fail_copy = code;
    fail_copy_key = late;
    MPI_Datatype never = MPI_DATATYPE_NULL;
    int rc = MPI_Type_dup(t, &never);
    fail_copy = 0;
    CHECK(rc == code, "MPI_Type_dup with a failing copy callback returned %d, expected %d", rc, code);
    CHECK(never == MPI_DATATYPE_NULL, "MPI_Type_dup made a type although a copy callback failed");
    /* counting's 101 and dupfn's 200 were copied before late's callback failed: deleted, latest first */
    CHECK(deletes == 2 && deleted_order[0] == 200 && deleted_order[1] == 101,
          "the copies made before the failure: %d deleted", deletes);
    deletes = ndeleted = 0;
    CHECK_MPI(MPI_Type_free(&t)); /* 500 (late), 400, 300, 200, 100: 500, 200 and 100 counted */
    CHECK(deletes == 3 && deleted_order[0] == 500 && deleted_order[1] == 200 && deleted_order[2] == 100,
          "freeing the original: %d deletes (%d, %d, %d)", deletes, deleted_order[0], deleted_order[1],
          deleted_order[2]);
    CHECK_MPI(MPI_Type_free_keyval(&dupfn));
    CHECK_MPI(MPI_Type_free_keyval(&nullcopy));
    CHECK_MPI(MPI_Type_free_keyval(&declining));
    CHECK_MPI(MPI_Type_free_keyval(&late));
    /* Strict: the freed key's number again. */
    CHECK_ERR(MPI_Type_free_keyval(&stale), MPI_ERR_KEYVAL, "keyval");
    dl_checks += 3;
}

static void strict_keys(void)
{
    int tkey, ckey, k;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL));
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, ckey, NULL), MPI_ERR_KEYVAL, "communicator key");
    int flag;
    void *v;
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, ckey, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_create_keyval");
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, tkey, NULL), MPI_ERR_KEYVAL, "keyval");
    k = tkey;
    CHECK_ERR(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL, "keyval");
    k = ckey;
    CHECK_ERR(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL, "communicator key");
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL, "MPI_TAG_UB");
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, NULL), MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID");
    CHECK_ERR(MPI_Type_set_attr(MPI_DATATYPE_NULL, tkey, NULL), MPI_ERR_TYPE, "datatype");
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, tkey, &v, NULL), MPI_ERR_ARG, "flag");
    CHECK_ERR(MPI_Type_create_keyval(NULL, NULL, NULL, NULL), MPI_ERR_ARG, "type_keyval");
    k = tkey;
    CHECK_MPI(MPI_Type_free_keyval(&k));
    k = tkey; /* twice */
    CHECK_ERR(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL, "keyval");
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, tkey, NULL), MPI_ERR_KEYVAL, "keyval");
    CHECK_MPI(MPI_Comm_free_keyval(&ckey));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    set_get_delete();
    dup_and_free();
    strict_keys();
    return tu_finish("%d type-attribute checks: set/get/replace/delete on derived and predefined "
                     "types, copy callbacks on MPI_Type_dup (counted, DUP_FN, NULL_COPY_FN, "
                     "declined, failing), delete callbacks on free/delete/replace (counted, "
                     "latest first, failing), freed keys, 13 strict key misuses",
                     dl_checks);
}
