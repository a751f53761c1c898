/* MPI_Status_set_elements and MPI_Status_set_cancelled: what they set is what MPI_Get_elements,
 * MPI_Get_count and MPI_Test_cancelled read back, for predefined types, pair types and derived
 * types (whole items and partial ones, counted against the bytes worked out by hand); a status
 * set by the program and a status the library filled agree for the same data; misuse classes
 * and messages (under Plexus). */
#include "test_util.h"

static void expect(const MPI_Status *st, MPI_Datatype type, int elements, int count, int bytes, const char *what)
{
    int e = -2, c = -2, b = -2;
    CHECK_MPI(MPI_Get_elements(st, type, &e));
    CHECK_MPI(MPI_Get_count(st, type, &c));
    CHECK_MPI(MPI_Get_elements(st, MPI_BYTE, &b));
    CHECK(e == elements && c == count && b == bytes,
          "%s: Get_elements %d, Get_count %d, bytes %d; expected %d, %d, %d", what, e, c, b, elements, count, bytes);
}

static void set(MPI_Status *st, MPI_Datatype type, int elements)
{
    CHECK_MPI(MPI_Status_set_elements(st, type, elements));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    MPI_Status st;
    memset(&st, 0, sizeof st);

    set(&st, MPI_INT, 7);
    expect(&st, MPI_INT, 7, 7, 28, "7 x MPI_INT");
    set(&st, MPI_DOUBLE, 0);
    expect(&st, MPI_DOUBLE, 0, 0, 0, "0 x MPI_DOUBLE");
    /* A pair type is two basic elements: 3 elements are one whole pair and its double. */
    set(&st, MPI_DOUBLE_INT, 3);
    int pair = -1;
    MPI_Type_size(MPI_DOUBLE_INT, &pair);
    expect(&st, MPI_DOUBLE_INT, 3, MPI_UNDEFINED, pair + 8, "3 elements of MPI_DOUBLE_INT");

    /* {int, double, 2 x short} (size 16, 4 elements): 6 elements are one item, an int and a double. */
    int lens[3] = {1, 1, 2};
    MPI_Aint disps[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, s3, three;
    CHECK_MPI(MPI_Type_create_struct(3, lens, disps, types, &s3));
    CHECK_MPI(MPI_Type_commit(&s3));
    set(&st, s3, 6);
    expect(&st, s3, 6, MPI_UNDEFINED, 16 + 4 + 8, "6 elements of {int, double, 2 x short}");
    set(&st, s3, 8);
    expect(&st, s3, 8, 2, 32, "8 elements of {int, double, 2 x short}");
    /* A vector of that struct: nested types count through. */
    CHECK_MPI(MPI_Type_vector(3, 1, 2, s3, &three));
    CHECK_MPI(MPI_Type_commit(&three));
    set(&st, three, 13);
    expect(&st, three, 13, MPI_UNDEFINED, 48 + 4, "13 elements of vector(3, 1, 2, struct)");
    set(&st, three, 24);
    expect(&st, three, 24, 2, 96, "24 elements of vector(3, 1, 2, struct)");

    /* The same counts as a real receive of that type gives. */
    {
        unsigned char send[64], recv[200];
        MPI_Request req;
        MPI_Status got;
        tu_fill(send, sizeof send, 42);
        CHECK_MPI(MPI_Irecv(recv, 2, s3, 0, 5, MPI_COMM_SELF, &req));
        CHECK_MPI(MPI_Send(send, 28, MPI_BYTE, 0, 5, MPI_COMM_SELF));
        CHECK_MPI(MPI_Wait(&req, &got));
        set(&st, s3, 6);
        int e1 = -1, e2 = -1;
        MPI_Get_elements(&got, s3, &e1);
        MPI_Get_elements(&st, s3, &e2);
        CHECK(e1 == 6 && e2 == 6, "a received 28 bytes of the struct count %d elements, a set status %d", e1, e2);
    }

    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    int flag = -1;
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1, "Status_set_cancelled(1): Test_cancelled %d", flag);
    CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 0, "Status_set_cancelled(0): Test_cancelled %d", flag);

#ifdef PLEXUS_MPI /* the classes MPI-2.2 gives and messages naming the argument */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char text[MPI_MAX_ERROR_STRING];
    int len, rc;
    rc = MPI_Status_set_elements(&st, MPI_INT, -1);
    MPI_Error_string(rc, text, &len);
    CHECK(tu_error_class(rc) == MPI_ERR_COUNT && strstr(text, "count -1"), "negative count: class %d, '%s'",
          tu_error_class(rc), text);
    rc = MPI_Status_set_elements(NULL, MPI_INT, 1);
    MPI_Error_string(rc, text, &len);
    CHECK(tu_error_class(rc) == MPI_ERR_ARG && strstr(text, "status"), "NULL status: class %d, '%s'",
          tu_error_class(rc), text);
    rc = MPI_Status_set_elements(&st, MPI_DATATYPE_NULL, 1);
    CHECK(tu_error_class(rc) == MPI_ERR_TYPE, "MPI_DATATYPE_NULL: class %d", tu_error_class(rc));
    rc = MPI_Status_set_cancelled(NULL, 1);
    MPI_Error_string(rc, text, &len);
    CHECK(tu_error_class(rc) == MPI_ERR_ARG && strstr(text, "status"), "Status_set_cancelled(NULL): class %d, '%s'",
          tu_error_class(rc), text);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif

    MPI_Type_free(&three);
    MPI_Type_free(&s3);
    return tu_finish("Status_set_elements read back by Get_elements/Get_count for predefined, pair, struct and "
                     "nested types (whole and partial items, bytes by hand), agreeing with a real receive; "
                     "Status_set_cancelled; misuse classes");
}
