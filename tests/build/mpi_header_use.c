/* Uses every function, constant and predefined handle mpi.h declares (tests/build/mpi_header.sh
 * checks that nothing is left out), compiled as C99..C17 and C++11..C++20 with -Wall -Wextra
 * -Werror -pedantic. Run as a singleton it is also a smoke test: each call on MPI_COMM_SELF does
 * what it should, and the program prints "mpi_header_use: OK". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "mpi_header_use: line %d: %s\n", __LINE__, #cond);        \
            ++failures;                                                               \
        }                                                                             \
    } while (0)
#define OK(call) CHECK((call) == MPI_SUCCESS)

static const int error_classes[] = {
    MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM, MPI_ERR_RANK,
    MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_GROUP, MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG,
    MPI_ERR_UNKNOWN, MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_IN_STATUS, MPI_ERR_PENDING,
    MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_ASSERT, MPI_ERR_BAD_FILE, MPI_ERR_BASE, MPI_ERR_CONVERSION,
    MPI_ERR_DISP, MPI_ERR_DUP_DATAREP, MPI_ERR_FILE_EXISTS, MPI_ERR_FILE_IN_USE, MPI_ERR_FILE,
    MPI_ERR_INFO_KEY, MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO, MPI_ERR_IO, MPI_ERR_KEYVAL,
    MPI_ERR_LOCKTYPE, MPI_ERR_NAME, MPI_ERR_NO_MEM, MPI_ERR_NOT_SAME, MPI_ERR_NO_SPACE,
    MPI_ERR_NO_SUCH_FILE, MPI_ERR_PORT, MPI_ERR_QUOTA, MPI_ERR_READ_ONLY, MPI_ERR_RMA_CONFLICT,
    MPI_ERR_RMA_SYNC, MPI_ERR_SERVICE, MPI_ERR_SIZE, MPI_ERR_SPAWN, MPI_ERR_UNSUPPORTED_DATAREP,
    MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_WIN};

struct typed {
    MPI_Datatype type;
    int size; /* what a C compiler says */
};

static void check_types(void) {
    struct double_int { double d; int i; };
    struct typed types[] = {
        {MPI_CHAR, sizeof(char)}, {MPI_SIGNED_CHAR, sizeof(signed char)},
        {MPI_UNSIGNED_CHAR, sizeof(unsigned char)}, {MPI_BYTE, 1}, {MPI_SHORT, sizeof(short)},
        {MPI_UNSIGNED_SHORT, sizeof(unsigned short)}, {MPI_INT, sizeof(int)}, {MPI_UNSIGNED, sizeof(unsigned)},
        {MPI_LONG, sizeof(long)}, {MPI_UNSIGNED_LONG, sizeof(unsigned long)},
        {MPI_LONG_LONG_INT, sizeof(long long)}, {MPI_LONG_LONG, sizeof(long long)},
        {MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long)}, {MPI_FLOAT, sizeof(float)},
        {MPI_DOUBLE, sizeof(double)}, {MPI_LONG_DOUBLE, sizeof(long double)}, {MPI_WCHAR, sizeof(wchar_t)},
        {MPI_C_BOOL, 1}, {MPI_INT8_T, 1}, {MPI_INT16_T, 2}, {MPI_INT32_T, 4}, {MPI_INT64_T, 8},
        {MPI_UINT8_T, 1}, {MPI_UINT16_T, 2}, {MPI_UINT32_T, 4}, {MPI_UINT64_T, 8},
        {MPI_C_COMPLEX, 2 * sizeof(float)}, {MPI_C_FLOAT_COMPLEX, 2 * sizeof(float)},
        {MPI_C_DOUBLE_COMPLEX, 2 * sizeof(double)}, {MPI_C_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double)},
        {MPI_AINT, sizeof(MPI_Aint)}, {MPI_OFFSET, sizeof(MPI_Offset)}, {MPI_PACKED, 1},
        {MPI_FLOAT_INT, sizeof(float) + sizeof(int)}, {MPI_DOUBLE_INT, sizeof(double) + sizeof(int)},
        {MPI_LONG_INT, sizeof(long) + sizeof(int)}, {MPI_2INT, 2 * sizeof(int)},
        {MPI_SHORT_INT, sizeof(short) + sizeof(int)}, {MPI_LONG_DOUBLE_INT, sizeof(long double) + sizeof(int)}};
    size_t i;
    int size;
    MPI_Status st;
    struct double_int pairs[3] = {{1.5, 1}, {2.5, 2}, {3.5, 3}}, got[3];
    MPI_Fint fint = 0;
    for (i = 0; i < sizeof types / sizeof types[0]; ++i) {
        OK(MPI_Type_size(types[i].type, &size));
        CHECK(size == types[i].size);
    }
    CHECK(MPI_DATATYPE_NULL == (MPI_Datatype)0);
    CHECK(fint == 0);
    /* A type with a hole travels packed and lands in the right places. */
    memset(got, 0, sizeof got);
    OK(MPI_Sendrecv(pairs, 3, MPI_DOUBLE_INT, 0, 1, got, 3, MPI_DOUBLE_INT, 0, 1, MPI_COMM_SELF, &st));
    OK(MPI_Get_count(&st, MPI_DOUBLE_INT, &size));
    CHECK(size == 3);
    OK(MPI_Get_elements(&st, MPI_DOUBLE_INT, &size));
    CHECK(size == 6);
    CHECK(got[2].d == 3.5 && got[2].i == 3);
}

static void check_errors(void) {
    char text[MPI_MAX_ERROR_STRING];
    int len, cls, rc;
    size_t i;
    MPI_Errhandler eh;
    int buf = 0;
    for (i = 0; i < sizeof error_classes / sizeof error_classes[0]; ++i) {
        OK(MPI_Error_string(error_classes[i], text, &len));
        CHECK(len > 0 && (int)strlen(text) == len);
        OK(MPI_Error_class(error_classes[i], &cls));
        CHECK(cls == error_classes[i]);
    }
    OK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    OK(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL);
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Send(&buf, 1, MPI_INT, 5, 0, MPI_COMM_SELF);
    OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_RANK);
    OK(MPI_Error_string(rc, text, &len));
    CHECK(strstr(text, "invalid rank 5") != NULL);
    CHECK(rc <= MPI_ERR_LASTCODE);
}

static int copies = 0, deletes = 0, handler_calls = 0;

static int copy_attr(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)oldcomm; (void)keyval; (void)extra;
    ++copies;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_attr(MPI_Comm comm, int keyval, void *value, void *extra) {
    (void)comm; (void)keyval; (void)value; (void)extra;
    ++deletes;
    return MPI_SUCCESS;
}

static void handler(MPI_Comm *comm, int *code, ...) {
    (void)comm; (void)code;
    ++handler_calls;
}

static int class_of(int code) {
    int cls = -1;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS) return -1;
    return cls;
}

static void check_groups(void) {
    MPI_Group world, self, g, h;
    int n, rank, result, ranks[1] = {0}, out[1];
    int ranges[1][3] = {{0, 0, 1}};
    OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    OK(MPI_Comm_group(MPI_COMM_SELF, &self));
    OK(MPI_Group_size(world, &n));
    OK(MPI_Group_rank(world, &rank));
    CHECK(n == 1 && rank == 0);
    OK(MPI_Group_compare(world, self, &result));
    CHECK(result == MPI_IDENT);
    OK(MPI_Group_incl(world, 1, ranks, &g));
    OK(MPI_Group_excl(g, 1, ranks, &h));
    OK(MPI_Group_size(h, &n));
    CHECK(n == 0);
    OK(MPI_Group_compare(h, MPI_GROUP_EMPTY, &result));
    CHECK(result == MPI_IDENT);
    OK(MPI_Group_free(&h));
    OK(MPI_Group_range_excl(g, 1, ranges, &h));
    OK(MPI_Group_free(&h));
    OK(MPI_Group_range_incl(g, 1, ranges, &h));
    OK(MPI_Group_free(&h));
    OK(MPI_Group_union(world, self, &h));
    OK(MPI_Group_free(&h));
    OK(MPI_Group_intersection(world, self, &h));
    OK(MPI_Group_free(&h));
    OK(MPI_Group_difference(world, self, &h));
    OK(MPI_Group_compare(h, world, &result));
    CHECK(result == MPI_UNEQUAL && MPI_SIMILAR != MPI_CONGRUENT);
    OK(MPI_Group_free(&h));
    OK(MPI_Group_translate_ranks(g, 1, ranks, self, out));
    CHECK(out[0] == 0);
    OK(MPI_Group_free(&g));
    OK(MPI_Group_free(&self));
    OK(MPI_Group_free(&world));
    CHECK(world == MPI_GROUP_NULL);
}

static void check_comms(void) {
    MPI_Comm dup, split, created, inter, merged;
    MPI_Group group, remote;
    int result, flag, size, len, keyval, *value;
    char name[MPI_MAX_OBJECT_NAME];
    static int attr = 7;

    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_compare(dup, MPI_COMM_WORLD, &result));
    CHECK(result == MPI_CONGRUENT);
    OK(MPI_Comm_set_name(dup, "dup"));
    OK(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "dup") == 0 && len == 3);
    OK(MPI_Comm_test_inter(dup, &flag));
    CHECK(!flag);

    OK(MPI_Comm_create_keyval(copy_attr, delete_attr, &keyval, NULL));
    OK(MPI_Comm_set_attr(dup, keyval, &attr));
    OK(MPI_Comm_split(dup, 0, 0, &split));
    OK(MPI_Comm_get_attr(split, keyval, &value, &flag));
    CHECK(!flag); /* only MPI_Comm_dup copies attributes */
    OK(MPI_Comm_free(&split));
    OK(MPI_Comm_split(dup, MPI_UNDEFINED, 0, &split));
    CHECK(split == MPI_COMM_NULL);

    OK(MPI_Comm_group(dup, &group));
    OK(MPI_Comm_create(dup, group, &created));
    /* A singleton has no disjoint group to talk to: the inter-communicator calls can only refuse. */
    OK(MPI_Comm_set_errhandler(created, MPI_ERRORS_RETURN));
    inter = MPI_COMM_NULL;
    CHECK(class_of(MPI_Intercomm_create(created, 0, MPI_COMM_NULL, 0, 5, &inter)) == MPI_ERR_COMM);
    CHECK(class_of(MPI_Comm_remote_size(created, &size)) == MPI_ERR_COMM);
    CHECK(class_of(MPI_Comm_remote_group(created, &remote)) == MPI_ERR_COMM);
    CHECK(class_of(MPI_Intercomm_merge(created, 0, &merged)) == MPI_ERR_COMM);
    CHECK(inter == MPI_COMM_NULL);
    OK(MPI_Comm_free(&created));
    OK(MPI_Group_free(&group));

    OK(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL && copies == 0 && deletes == 1);
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &attr));
    OK(MPI_Comm_delete_attr(MPI_COMM_SELF, keyval));
    CHECK(deletes == 2);
    OK(MPI_Comm_free_keyval(&keyval));
    CHECK(keyval == MPI_KEYVAL_INVALID);
    OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
    OK(MPI_Comm_free_keyval(&keyval));
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
    OK(MPI_Comm_free_keyval(&keyval));

    /* The MPI-1 names of the same calls. */
    OK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &keyval, NULL));
    OK(MPI_Attr_put(MPI_COMM_SELF, keyval, &attr));
    OK(MPI_Attr_get(MPI_COMM_SELF, keyval, &value, &flag));
    CHECK(flag && value == &attr);
    OK(MPI_Attr_delete(MPI_COMM_SELF, keyval));
    OK(MPI_Keyval_free(&keyval));
    OK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &keyval, NULL));
    OK(MPI_Keyval_free(&keyval));

    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag));
    CHECK(flag && *value >= 32767);
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag));
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag));
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag));
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag));
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag));
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag));
    CHECK(flag);
}

static void check_errhandlers(void) {
    MPI_Errhandler eh;
    int cls, code, rc, len, buf = 0;
    char text[MPI_MAX_ERROR_STRING];
    OK(MPI_Comm_create_errhandler(handler, &eh));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    OK(MPI_Errhandler_free(&eh));
    rc = MPI_Send(&buf, 1, MPI_INT, 3, 0, MPI_COMM_SELF);
    CHECK(rc != MPI_SUCCESS && handler_calls == 1);
    OK(MPI_Add_error_class(&cls));
    OK(MPI_Add_error_code(cls, &code));
    OK(MPI_Add_error_string(code, "a user error"));
    OK(MPI_Error_string(code, text, &len));
    CHECK(strcmp(text, "a user error") == 0);
    OK(MPI_Comm_call_errhandler(MPI_COMM_SELF, code));
    CHECK(handler_calls == 2);
    OK(MPI_Errhandler_create(handler, &eh));
    OK(MPI_Errhandler_set(MPI_COMM_SELF, eh));
    OK(MPI_Errhandler_free(&eh));
    OK(MPI_Errhandler_get(MPI_COMM_SELF, &eh));
    OK(MPI_Comm_call_errhandler(MPI_COMM_SELF, code));
    CHECK(handler_calls == 3);
    OK(MPI_Errhandler_free(&eh));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
}

static void check_info(void) {
    MPI_Info info, copy;
    int flag, n, len;
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "host", "node1"));
    OK(MPI_Info_get(info, "host", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strcmp(value, "node1") == 0);
    OK(MPI_Info_get_valuelen(info, "host", &len, &flag));
    CHECK(flag && len == 5);
    OK(MPI_Info_dup(info, &copy));
    OK(MPI_Info_delete(info, "host"));
    OK(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 0);
    OK(MPI_Info_get_nkeys(copy, &n));
    OK(MPI_Info_get_nthkey(copy, 0, key));
    CHECK(n == 1 && strcmp(key, "host") == 0);
    OK(MPI_Info_free(&copy));
    OK(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL);
}

struct particle {
    double x[3];
    int id;
};

static void check_derived(void) {
    static const int combiners[] = {
        MPI_COMBINER_NAMED, MPI_COMBINER_DUP, MPI_COMBINER_CONTIGUOUS, MPI_COMBINER_VECTOR,
        MPI_COMBINER_HVECTOR_INTEGER, MPI_COMBINER_HVECTOR, MPI_COMBINER_INDEXED,
        MPI_COMBINER_HINDEXED_INTEGER, MPI_COMBINER_HINDEXED, MPI_COMBINER_INDEXED_BLOCK,
        MPI_COMBINER_STRUCT_INTEGER, MPI_COMBINER_STRUCT, MPI_COMBINER_SUBARRAY, MPI_COMBINER_DARRAY,
        MPI_COMBINER_F90_REAL, MPI_COMBINER_F90_COMPLEX, MPI_COMBINER_F90_INTEGER, MPI_COMBINER_RESIZED};
    int matrix[4][4], column[4], i, j, size, position, ni, na, nd, combiner, len;
    int blocks[2] = {3, 1}, displs[2] = {0, 2}, ints[8];
    MPI_Aint lb, extent, addrs[2], base, got_addrs[2];
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT}, col, t, p, q, got_types[2];
    struct particle parts[2] = {{{1, 2, 3}, 4}, {{5, 6, 7}, 8}}, back[2];
    char packed[256], name[MPI_MAX_OBJECT_NAME];

    CHECK(sizeof combiners / sizeof combiners[0] == 18);
    for (i = 0; i < 4; ++i)
        for (j = 0; j < 4; ++j) matrix[i][j] = 10 * i + j;
    OK(MPI_Type_vector(4, 1, 4, MPI_INT, &col));
    OK(MPI_Type_commit(&col));
    OK(MPI_Sendrecv(&matrix[0][2], 1, col, 0, 1, column, 4, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK(column[0] == 2 && column[3] == 32);
    OK(MPI_Type_get_envelope(col, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
    OK(MPI_Type_get_contents(col, 3, 0, 1, ints, got_addrs, got_types));
    CHECK(ints[0] == 4 && ints[1] == 1 && ints[2] == 4 && got_types[0] == MPI_INT);
    OK(MPI_Type_set_name(col, "column"));
    OK(MPI_Type_get_name(col, name, &len));
    CHECK(strcmp(name, "column") == 0);
    OK(MPI_Type_free(&col));
    CHECK(col == MPI_DATATYPE_NULL);

    OK(MPI_Get_address(&parts[0].x, &addrs[0]));
    OK(MPI_Get_address(&parts[0].id, &addrs[1]));
    base = addrs[0];
    addrs[0] -= base;
    addrs[1] -= base;
    OK(MPI_Type_create_struct(2, blocks, addrs, types, &t));
    OK(MPI_Type_create_resized(t, 0, (MPI_Aint)sizeof parts[0], &p));
    OK(MPI_Type_commit(&p));
    OK(MPI_Type_get_extent(p, &lb, &extent));
    CHECK(lb == 0 && extent == (MPI_Aint)sizeof parts[0]);
    OK(MPI_Type_get_true_extent(p, &lb, &extent));
    CHECK(lb == 0);
    OK(MPI_Pack_size(2, p, MPI_COMM_SELF, &size));
    CHECK(size >= (int)(2 * (3 * sizeof(double) + sizeof(int))));
    position = 0;
    OK(MPI_Pack(parts, 2, p, packed, (int)sizeof packed, &position, MPI_COMM_SELF));
    memset(back, 0, sizeof back);
    i = position;
    position = 0;
    OK(MPI_Unpack(packed, i, &position, back, 2, p, MPI_COMM_SELF));
    CHECK(back[1].x[2] == 7 && back[1].id == 8);

    OK(MPI_Type_contiguous(2, MPI_INT, &q));
    OK(MPI_Type_free(&q));
    OK(MPI_Type_create_hvector(2, 1, 8, MPI_INT, &q));
    OK(MPI_Type_free(&q));
    OK(MPI_Type_indexed(2, blocks, displs, MPI_INT, &q));
    OK(MPI_Type_free(&q));
    OK(MPI_Type_create_hindexed(2, blocks, addrs, MPI_INT, &q));
    OK(MPI_Type_free(&q));
    OK(MPI_Type_create_indexed_block(2, 1, displs, MPI_INT, &q));
    OK(MPI_Type_free(&q));
    OK(MPI_Type_dup(p, &q));
    OK(MPI_Type_free(&q));
    OK(MPI_Type_free(&p));
    OK(MPI_Type_free(&t));

    /* Absolute addresses: MPI_BOTTOM plus a type built from MPI_Get_address. */
    OK(MPI_Get_address(&matrix[1][1], &addrs[0]));
    blocks[0] = 2;
    OK(MPI_Type_create_hindexed(1, blocks, addrs, MPI_INT, &q));
    OK(MPI_Type_commit(&q));
    OK(MPI_Sendrecv(MPI_BOTTOM, 1, q, 0, 2, column, 2, MPI_INT, 0, 2, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK(column[0] == 11 && column[1] == 12);
    OK(MPI_Type_free(&q));
}

static int type_copies = 0;

static int copy_type_attr(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)old, (void)keyval, (void)extra;
    ++type_copies;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* Subarray/darray, external32, match_size, the MPI-1 forms with MPI_LB/MPI_UB, type attributes. */
static void check_derived_more(void) {
    static const int constants[] = {MPI_ORDER_C, MPI_ORDER_FORTRAN, MPI_DISTRIBUTE_BLOCK,
                                    MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_DFLT_DARG,
                                    MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX};
    int sizes[2] = {4, 4}, sub[2] = {2, 2}, starts[2] = {1, 1}, distribs[2], dargs[2], psizes[2] = {1, 1};
    int matrix[16], i, key, flag, blocks[3] = {1, 1, 1};
    unsigned char ext[8];
    MPI_Aint pos = 0, size, lb, ub, extent, addr, disps[3];
    MPI_Datatype t, d, types[3] = {MPI_LB, MPI_INT, MPI_UB};
    void *value;
    CHECK(constants[0] != constants[1]);
    for (i = 0; i < 16; ++i) matrix[i] = i;
    OK(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t));
    OK(MPI_Type_commit(&t));
    OK(MPI_Pack_external_size("external32", 1, t, &size));
    CHECK(size == 16);
    OK(MPI_Type_free(&t));
    distribs[0] = MPI_DISTRIBUTE_BLOCK;
    distribs[1] = MPI_DISTRIBUTE_CYCLIC;
    dargs[0] = dargs[1] = MPI_DISTRIBUTE_DFLT_DARG;
    OK(MPI_Type_create_darray(1, 0, 2, sizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_INT, &t));
    OK(MPI_Type_free(&t));
    OK(MPI_Pack_external("external32", &matrix[1], 1, MPI_INT, ext, 8, &pos));
    CHECK(pos == 4 && ext[3] == 1 && ext[0] == 0);
    pos = 0;
    OK(MPI_Unpack_external("external32", ext, 8, &pos, &matrix[0], 1, MPI_INT));
    CHECK(matrix[0] == 1);
    OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    CHECK(t == MPI_DOUBLE);
    disps[0] = -4;
    disps[1] = 0;
    disps[2] = 12;
    OK(MPI_Type_struct(3, blocks, disps, types, &t));
    OK(MPI_Type_lb(t, &lb));
    OK(MPI_Type_ub(t, &ub));
    OK(MPI_Type_extent(t, &extent));
    CHECK(lb == -4 && ub == 12 && extent == 16);
    OK(MPI_Type_hvector(2, 1, 8, t, &d));
    OK(MPI_Type_free(&d));
    OK(MPI_Type_hindexed(1, blocks, disps, MPI_INT, &d));
    OK(MPI_Type_free(&d));
    OK(MPI_Address(&matrix[2], &addr));
    OK(MPI_Type_create_keyval(copy_type_attr, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    OK(MPI_Type_set_attr(t, key, &matrix[3]));
    OK(MPI_Type_dup(t, &d));
    OK(MPI_Type_get_attr(d, key, &value, &flag));
    CHECK(flag && value == &matrix[3] && type_copies == 1);
    OK(MPI_Type_delete_attr(d, key));
    OK(MPI_Type_free(&d));
    OK(MPI_Type_free(&t));
    OK(MPI_Type_free_keyval(&key));
    OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    OK(MPI_Type_free_keyval(&key));
    OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    OK(MPI_Type_free_keyval(&key));
}

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *type) {
    int i;
    (void)type;
    for (i = 0; i < *len; ++i) ((int *)inout)[i] += ((const int *)in)[i];
}

static void check_collectives(void) {
    static const MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                                 MPI_BOR, MPI_LXOR, MPI_BXOR};
    int in[2] = {3, 4}, out[2] = {0, 0}, one = 1, zero = 0, commute, flag;
    int counts[1] = {2}, displs[1] = {0}, i;
    struct { double v; int i; } pair = {2.5, 0}, best;
    MPI_Datatype types[1] = {MPI_INT};
    MPI_Op op;
    MPI_Info info, used;
    char value[MPI_MAX_INFO_VAL + 1];
    MPI_Comm c = MPI_COMM_SELF, dup;

    OK(MPI_Barrier(c));
    OK(MPI_Bcast(in, 2, MPI_INT, 0, c));
    for (i = 0; i < (int)(sizeof ops / sizeof ops[0]); ++i) {
        out[0] = out[1] = 0; /* a Reduce that wrote nothing must not pass on the last one's result */
        OK(MPI_Reduce(in, out, 2, MPI_INT, ops[i], 0, c));
        CHECK(out[0] == 3 && out[1] == 4);
    }
    OK(MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, c));
    OK(MPI_Allreduce(MPI_IN_PLACE, out, 2, MPI_INT, MPI_SUM, c));
    CHECK(out[0] == 3 && out[1] == 4);
    out[0] = out[1] = 0;
    OK(MPI_Alltoall(in, 2, MPI_INT, out, 2, MPI_INT, c));
    CHECK(out[0] == 3 && out[1] == 4);
    OK(MPI_Reduce(&pair, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, c));
    OK(MPI_Reduce(&pair, &best, 1, MPI_DOUBLE_INT, MPI_MINLOC, 0, c));
    CHECK(best.v == 2.5 && best.i == 0);
    OK(MPI_Gather(in, 2, MPI_INT, out, 2, MPI_INT, 0, c));
    OK(MPI_Gatherv(in, 2, MPI_INT, out, counts, displs, MPI_INT, 0, c));
    OK(MPI_Scatter(in, 2, MPI_INT, out, 2, MPI_INT, 0, c));
    OK(MPI_Scatterv(in, counts, displs, MPI_INT, out, 2, MPI_INT, 0, c));
    OK(MPI_Allgather(in, 2, MPI_INT, out, 2, MPI_INT, c));
    OK(MPI_Allgatherv(in, 2, MPI_INT, out, counts, displs, MPI_INT, c));
    OK(MPI_Alltoall(in, 2, MPI_INT, out, 2, MPI_INT, c));
    OK(MPI_Alltoallv(in, counts, displs, MPI_INT, out, counts, displs, MPI_INT, c));
    OK(MPI_Alltoallw(in, counts, displs, types, out, counts, displs, types, c));
    OK(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, c));
    OK(MPI_Reduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, c));
    out[0] = out[1] = 0;
    OK(MPI_Scan(in, out, 2, MPI_INT, MPI_SUM, c));
    CHECK(out[0] == 3 && out[1] == 4);
    OK(MPI_Exscan(in, out, 2, MPI_INT, MPI_SUM, c));

    OK(MPI_Op_create(add_ints, 1, &op));
    OK(MPI_Op_commutative(op, &commute));
    CHECK(commute == 1);
    out[0] = 10;
    out[1] = 20;
    OK(MPI_Reduce_local(in, out, 2, MPI_INT, op));
    CHECK(out[0] == 13 && out[1] == 24);
    OK(MPI_Allreduce(in, out, 2, MPI_INT, op, c));
    OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL);
    OK(MPI_Reduce_local(&one, &zero, 1, MPI_INT, MPI_SUM));
    CHECK(zero == 1 && MPI_REPLACE != MPI_SUM); /* MPI_REPLACE is for one-sided accumulates */

    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "plexus_coll_preference", "basic"));
    OK(MPI_Comm_set_info(c, info));
    OK(MPI_Info_free(&info));
    OK(MPI_Comm_get_info(c, &used));
    OK(MPI_Info_get(used, "plexus_coll_preference", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strcmp(value, "basic") == 0);
    OK(MPI_Info_free(&used));
    OK(MPI_Barrier(c));
    /* A duplicate keeps the hints of its original (MPI-3's MPI_Comm_dup). */
    OK(MPI_Comm_dup(c, &dup));
    OK(MPI_Comm_get_info(dup, &used));
    flag = 0;
    OK(MPI_Info_get(used, "plexus_coll_preference", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strcmp(value, "basic") == 0);
    OK(MPI_Info_free(&used));
    OK(MPI_Barrier(dup));
    OK(MPI_Comm_free(&dup));
}

static void check_blocking(void) {
    int out[4] = {1, 2, 3, 4}, in[4] = {0, 0, 0, 0}, count, flag;
    MPI_Status st;
    MPI_Request r;
    char bsend_buffer[2 * (sizeof out + MPI_BSEND_OVERHEAD)];
    void *detached;
    int detached_size;

    OK(MPI_Irecv(in, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &r));
    OK(MPI_Send(out, 4, MPI_INT, 0, 7, MPI_COMM_SELF));
    OK(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL && st.MPI_SOURCE == 0 && st.MPI_TAG == 7 && in[3] == 4);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 4);

    OK(MPI_Irecv(in, 4, MPI_INT, 0, 8, MPI_COMM_SELF, &r));
    OK(MPI_Ssend(out, 4, MPI_INT, 0, 8, MPI_COMM_SELF));
    OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    OK(MPI_Irecv(in, 4, MPI_INT, 0, 9, MPI_COMM_SELF, &r));
    OK(MPI_Rsend(out, 4, MPI_INT, 0, 9, MPI_COMM_SELF));
    OK(MPI_Wait(&r, MPI_STATUS_IGNORE));

    OK(MPI_Buffer_attach(bsend_buffer, (int)sizeof bsend_buffer));
    OK(MPI_Bsend(out, 4, MPI_INT, 0, 10, MPI_COMM_SELF));
    OK(MPI_Ibsend(out, 4, MPI_INT, 0, 11, MPI_COMM_SELF, &r));
    OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    OK(MPI_Probe(0, 10, MPI_COMM_SELF, &st));
    CHECK(st.MPI_TAG == 10);
    OK(MPI_Iprobe(0, 11, MPI_COMM_SELF, &flag, &st));
    CHECK(flag);
    OK(MPI_Recv(in, 4, MPI_INT, 0, 10, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    OK(MPI_Recv(in, 4, MPI_INT, 0, 11, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    OK(MPI_Buffer_detach(&detached, &detached_size));
    CHECK(detached == (void *)bsend_buffer && detached_size == (int)sizeof bsend_buffer);

    OK(MPI_Sendrecv_replace(in, 4, MPI_INT, 0, 12, 0, 12, MPI_COMM_SELF, &st));
    CHECK(in[0] == 1 && st.MPI_TAG == 12);
    OK(MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0);
}

static void check_nonblocking(void) {
    int out[2] = {5, 6}, in[2][2], index, outcount, indices[2], flag;
    MPI_Request r[2];
    MPI_Status st[2];

    OK(MPI_Isend(out, 2, MPI_INT, 0, 1, MPI_COMM_SELF, &r[0]));
    OK(MPI_Irecv(in[0], 2, MPI_INT, 0, 1, MPI_COMM_SELF, &r[1]));
    OK(MPI_Waitall(2, r, st));
    CHECK(in[0][1] == 6);
    OK(MPI_Irecv(in[0], 2, MPI_INT, 0, 2, MPI_COMM_SELF, &r[0]));
    OK(MPI_Issend(out, 2, MPI_INT, 0, 2, MPI_COMM_SELF, &r[1]));
    OK(MPI_Waitany(2, r, &index, &st[0]));
    OK(MPI_Waitsome(2, r, &outcount, indices, st));
    OK(MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE));
    while (!flag) OK(MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE));
    OK(MPI_Irecv(in[1], 2, MPI_INT, 0, 3, MPI_COMM_SELF, &r[0]));
    OK(MPI_Irsend(out, 2, MPI_INT, 0, 3, MPI_COMM_SELF, &r[1]));
    do OK(MPI_Testany(2, r, &index, &flag, &st[0])); while (!flag);
    do OK(MPI_Testsome(2, r, &outcount, indices, st)); while (outcount != MPI_UNDEFINED && r[0] != r[1]);
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);

    OK(MPI_Isend(out, 2, MPI_INT, 0, 4, MPI_COMM_SELF, &r[0]));
    OK(MPI_Request_get_status(r[0], &flag, &st[0]));
    OK(MPI_Request_free(&r[0]));
    OK(MPI_Recv(in[0], 2, MPI_INT, 0, 4, MPI_COMM_SELF, MPI_STATUS_IGNORE));

    OK(MPI_Irecv(in[0], 2, MPI_INT, 0, 99, MPI_COMM_SELF, &r[0]));
    OK(MPI_Cancel(&r[0]));
    OK(MPI_Wait(&r[0], &st[0]));
    OK(MPI_Test_cancelled(&st[0], &flag));
    CHECK(flag);
    OK(MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE));
    CHECK(flag);
}

static int greq_query(void *extra, MPI_Status *status) {
    (void)extra;
    OK(MPI_Status_set_elements(status, MPI_INT, 2));
    OK(MPI_Status_set_cancelled(status, 0));
    return MPI_SUCCESS;
}
static int greq_free(void *extra) {
    ++*(int *)extra;
    return MPI_SUCCESS;
}
static int greq_cancel(void *extra, int complete) {
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

static void check_grequest(void) {
    int freed = 0, count = 0;
    MPI_Request r;
    MPI_Status st;
    OK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &freed, &r));
    OK(MPI_Grequest_complete(r));
    OK(MPI_Wait(&r, &st));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 2 && freed == 1 && r == MPI_REQUEST_NULL);
}

static void check_persistent(void) {
    int out = 42, in = 0, i;
    MPI_Request r[2];
    char buffer[sizeof out + MPI_BSEND_OVERHEAD];
    void *detached;
    int size;

    OK(MPI_Recv_init(&in, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r[0]));
    OK(MPI_Send_init(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r[1]));
    for (i = 0; i < 3; ++i) {
        out = 42 + i;
        OK(MPI_Startall(2, r));
        OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        CHECK(in == 42 + i);
    }
    OK(MPI_Request_free(&r[1]));
    OK(MPI_Ssend_init(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r[1]));
    OK(MPI_Start(&r[0]));
    OK(MPI_Start(&r[1]));
    OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    OK(MPI_Request_free(&r[1]));
    OK(MPI_Rsend_init(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r[1]));
    OK(MPI_Start(&r[0]));
    OK(MPI_Start(&r[1]));
    OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    OK(MPI_Request_free(&r[1]));
    OK(MPI_Buffer_attach(buffer, (int)sizeof buffer));
    OK(MPI_Bsend_init(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r[1]));
    OK(MPI_Start(&r[1]));
    OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    OK(MPI_Start(&r[0]));
    OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    OK(MPI_Buffer_detach(&detached, &size));
    OK(MPI_Request_free(&r[1]));
    OK(MPI_Request_free(&r[0]));
}

/* Process topologies on MPI_COMM_SELF: a 1 x 1 periodic grid, a one-node graph with a self-loop,
 * a distributed graph with one weighted self-edge. */
static void check_topologies(void) {
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2], nd = -1, rank = -1, src, dst, status, remain[2] = {1, 0};
    int index[1] = {1}, edges[1] = {0}, nn, ne, self[1] = {0}, w[1] = {5}, in, out, weighted, gi[1], ge[1], ws[1];
    MPI_Comm cart, sub, graph, dist, dist2;
    OK(MPI_Dims_create(1, 2, dims));
    CHECK(dims[0] == 1 && dims[1] == 1);
    OK(MPI_Cart_create(MPI_COMM_SELF, 2, dims, periods, 1, &cart));
    OK(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART);
    OK(MPI_Cartdim_get(cart, &nd));
    OK(MPI_Cart_get(cart, 2, dims, periods, coords));
    CHECK(nd == 2 && coords[0] == 0 && periods[0] == 1 && periods[1] == 0);
    coords[0] = 3; /* periodic: wraps to 0 */
    coords[1] = 0;
    OK(MPI_Cart_rank(cart, coords, &rank));
    OK(MPI_Cart_coords(cart, 0, 2, coords));
    OK(MPI_Cart_shift(cart, 0, 1, &src, &dst));
    CHECK(rank == 0 && src == 0 && dst == 0);
    OK(MPI_Cart_shift(cart, 1, 1, &src, &dst));
    CHECK(src == MPI_PROC_NULL && dst == MPI_PROC_NULL);
    OK(MPI_Cart_sub(cart, remain, &sub));
    OK(MPI_Cart_map(MPI_COMM_SELF, 2, dims, periods, &rank));
    CHECK(rank == 0);
    OK(MPI_Graph_create(MPI_COMM_SELF, 1, index, edges, 0, &graph));
    OK(MPI_Topo_test(graph, &status));
    OK(MPI_Graphdims_get(graph, &nn, &ne));
    OK(MPI_Graph_get(graph, 1, 1, gi, ge));
    OK(MPI_Graph_neighbors_count(graph, 0, &nn));
    OK(MPI_Graph_neighbors(graph, 0, 1, ge));
    OK(MPI_Graph_map(MPI_COMM_SELF, 1, index, edges, &rank));
    CHECK(status == MPI_GRAPH && nn == 1 && ne == 1 && gi[0] == 1 && ge[0] == 0 && rank == 0);
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, self, w, 1, self, w, MPI_INFO_NULL, 0, &dist));
    OK(MPI_Dist_graph_create(MPI_COMM_SELF, 1, self, index /* degrees {1} */, self, MPI_UNWEIGHTED,
                             MPI_INFO_NULL, 0, &dist2));
    OK(MPI_Topo_test(dist, &status));
    OK(MPI_Dist_graph_neighbors_count(dist, &in, &out, &weighted));
    OK(MPI_Dist_graph_neighbors(dist, 1, ge, ws, 1, gi, MPI_UNWEIGHTED));
    CHECK(status == MPI_DIST_GRAPH && in == 1 && out == 1 && weighted && ge[0] == 0 && ws[0] == 5);
    OK(MPI_Comm_free(&dist2));
    OK(MPI_Comm_free(&dist));
    OK(MPI_Comm_free(&graph));
    OK(MPI_Comm_free(&sub));
    OK(MPI_Comm_free(&cart));
}

/* One-sided on MPI_COMM_SELF: a window, its attributes, name, keyvals and error handlers, and one
 * epoch of each kind. The data calls need an osc component that moves data: without one they
 * answer MPI_ERR_UNSUPPORTED_OPERATION, which is accepted here (docs/one-sided.md). */
static int win_deletes = 0;
static int win_delete(MPI_Win win, int keyval, void *value, void *extra) {
    (void)win, (void)keyval, (void)value, (void)extra;
    ++win_deletes;
    return MPI_SUCCESS;
}
static void win_handler(MPI_Win *win, int *code, ...) {
    (void)win, (void)code;
    ++handler_calls;
}
static int done_or_unsupported(int rc) { return rc == MPI_SUCCESS || class_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION; }

static void check_windows(void) {
    static int mem[4];
    int one = 7, got = 0, key, flag, len, rc, *unit;
    MPI_Aint *bytes;
    void *base;
    char wname[MPI_MAX_OBJECT_NAME];
    MPI_Win win = MPI_WIN_NULL;
    MPI_Errhandler e, old;
    MPI_Group g;
    MPI_Win_copy_attr_function *copy_fn = MPI_WIN_DUP_FN;
    MPI_Win_errhandler_fn *old_name = win_handler;
    CHECK(MPI_LOCK_EXCLUSIVE != MPI_LOCK_SHARED && old_name == win_handler);
    CHECK((MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED) == 31);
    OK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &old));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &win);
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, old));
    OK(MPI_Errhandler_free(&old));
    if (rc != MPI_SUCCESS) { /* no osc component in this installation */
        CHECK(class_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION && win == MPI_WIN_NULL);
        return;
    }
    CHECK(MPI_Win_f2c(MPI_Win_c2f(win)) == win);
    OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &bytes, &flag));
    OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
    CHECK(base == mem && *bytes == (MPI_Aint)sizeof mem && *unit == (int)sizeof(int));
    OK(MPI_Win_set_name(win, "w"));
    OK(MPI_Win_get_name(win, wname, &len));
    CHECK(len == 1 && strcmp(wname, "w") == 0);
    OK(MPI_Win_create_keyval(copy_fn, win_delete, &key, NULL));
    OK(MPI_Win_set_attr(win, key, &one));
    OK(MPI_Win_delete_attr(win, key));
    CHECK(win_deletes == 1);
    OK(MPI_Win_free_keyval(&key));
    OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key, NULL));
    OK(MPI_Win_free_keyval(&key));
    OK(MPI_Win_create_errhandler(win_handler, &e));
    OK(MPI_Win_set_errhandler(win, e));
    OK(MPI_Errhandler_free(&e));
    OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK(handler_calls > 0);
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    OK(MPI_Win_get_errhandler(win, &e));
    CHECK(e == MPI_ERRORS_RETURN);
    OK(MPI_Errhandler_free(&e));
    OK(MPI_Win_get_group(win, &g));
    CHECK(done_or_unsupported(MPI_Win_fence(MPI_MODE_NOPRECEDE, win)));
    CHECK(done_or_unsupported(MPI_Put(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, win)));
    CHECK(done_or_unsupported(MPI_Win_fence(0, win)));
    CHECK(done_or_unsupported(MPI_Get(&got, 1, MPI_INT, 0, 1, 1, MPI_INT, win)));
    CHECK(done_or_unsupported(MPI_Win_fence(MPI_MODE_NOSUCCEED, win)));
    CHECK(done_or_unsupported(MPI_Win_post(g, 0, win)));
    CHECK(done_or_unsupported(MPI_Win_start(g, 0, win)));
    CHECK(done_or_unsupported(MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win)));
    CHECK(done_or_unsupported(MPI_Win_complete(win)));
    flag = 0;
    rc = MPI_Win_test(win, &flag);
    CHECK(done_or_unsupported(rc));
    if (rc != MPI_SUCCESS || !flag) CHECK(done_or_unsupported(MPI_Win_wait(win)));
    CHECK(done_or_unsupported(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, MPI_MODE_NOCHECK, win)));
    CHECK(done_or_unsupported(MPI_Win_unlock(0, win)));
    CHECK(got == 0 || got == 7);
    OK(MPI_Group_free(&g));
    OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL);
}

/* Dynamic processes as a singleton: no parent; names and ports where the dpm component serves
 * them; spawns of a command that does not exist fail with MPI_ERR_SPAWN; misuse is refused. */
static int dpm_refused(int rc, int cls) { return class_of(rc) == cls || class_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION; }

static void check_dynamic(void) {
    char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME], cmd[] = "/nonexistent/plexus-no-such-program";
    char *cmds[1] = {cmd};
    int maxprocs[1] = {1}, codes[1] = {0}, rc;
    MPI_Info infos[1] = {MPI_INFO_NULL};
    MPI_Comm parent = MPI_COMM_WORLD, inter = MPI_COMM_WORLD, dup;
    MPI_Errhandler old_world, old_self;
    OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL);
    OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &old_world));
    OK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &old_self));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Open_port(MPI_INFO_NULL, port);
    if (rc == MPI_SUCCESS) {
        CHECK(strlen(port) < MPI_MAX_PORT_NAME);
        rc = MPI_Publish_name("mpi-header-use", MPI_INFO_NULL, port);
        if (rc == MPI_SUCCESS) {
            OK(MPI_Lookup_name("mpi-header-use", MPI_INFO_NULL, found));
            CHECK(strcmp(found, port) == 0);
            OK(MPI_Unpublish_name("mpi-header-use", MPI_INFO_NULL, port));
        }
        OK(MPI_Close_port(port));
    } else {
        CHECK(dpm_refused(rc, MPI_ERR_OTHER));
    }
    CHECK(dpm_refused(MPI_Comm_spawn(cmd, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, codes),
                      MPI_ERR_SPAWN));
    CHECK(inter == MPI_COMM_NULL);
    CHECK(dpm_refused(MPI_Comm_spawn_multiple(1, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_SELF, &inter,
                                              MPI_ERRCODES_IGNORE),
                      MPI_ERR_SPAWN));
    CHECK(dpm_refused(MPI_Comm_connect("not-a-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter), MPI_ERR_PORT));
    CHECK(dpm_refused(MPI_Comm_accept("not-a-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter), MPI_ERR_PORT));
    CHECK(class_of(MPI_Comm_join(-1, &inter)) == MPI_ERR_ARG);
    OK(MPI_Comm_dup(MPI_COMM_SELF, &dup));
    OK(MPI_Comm_disconnect(&dup));
    CHECK(dup == MPI_COMM_NULL);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, old_world));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, old_self));
    OK(MPI_Errhandler_free(&old_world));
    OK(MPI_Errhandler_free(&old_self));
}

int main(int argc, char **argv) {
    int flag, provided, rank, size, len, version, subversion;
    char name[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING], cname[MPI_MAX_OBJECT_NAME];
    MPI_Comm comm = MPI_COMM_NULL;
    double t;

    OK(MPI_Initialized(&flag));
    CHECK(!flag);
    OK(MPI_Get_version(&version, &subversion));
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION);
    OK(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && strncmp(lib, "Plexus", 6) == 0);
    if (argc > 1000) OK(MPI_Init(&argc, &argv)); /* never: only its declaration is checked */
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_FUNNELED);
    CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
          MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE);
    OK(MPI_Query_thread(&provided));
    CHECK(provided == MPI_THREAD_FUNNELED);
    OK(MPI_Is_thread_main(&flag));
    CHECK(flag);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(rank == 0 && size == 1);
    OK(MPI_Comm_get_name(MPI_COMM_SELF, cname, &len));
    CHECK(strcmp(cname, "MPI_COMM_SELF") == 0 && len == 13);
    OK(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME);
    t = MPI_Wtime();
    CHECK(MPI_Wtime() >= t && MPI_Wtick() > 0);
    OK(MPI_Pcontrol(0));
    OK(MPI_Pcontrol(2, "a tool's own argument", 7));
    {
        char *mem = NULL;
        OK(MPI_Alloc_mem(64, MPI_INFO_NULL, &mem));
        CHECK(mem != NULL);
        if (mem) memset(mem, 1, 64);
        OK(MPI_Free_mem(mem));
    }
    CHECK(comm == MPI_COMM_NULL && MPI_ANY_SOURCE < 0 && MPI_ANY_TAG < 0 && MPI_PROC_NULL < 0 && MPI_ROOT < 0);
    CHECK(MPI_UNDEFINED == -32766);

    check_types();
    check_blocking();
    check_nonblocking();
    check_grequest();
    check_persistent();
    check_topologies();
    check_errors();
    check_groups();
    check_comms();
    check_errhandlers();
    check_info();
    check_derived();
    check_derived_more();
    check_collectives();
    check_windows();
    check_dynamic();
    CHECK(MPI_MAX_INFO_KEY == 255 && MPI_MAX_INFO_VAL == 1024 && MPI_INFO_NULL == (MPI_Info)0);

    if (argc > 1000) MPI_Abort(MPI_COMM_WORLD, 1); /* never */
    OK(MPI_Finalize());
    OK(MPI_Finalized(&flag));
    CHECK(flag);
    if (failures == 0) printf("mpi_header_use: OK\n");
    return failures != 0;
}
