// Unit tests of the reductions' argument checks: each misuse of MPI_Reduce_local's arguments
// gives its error class (through MPI_COMM_WORLD's handler, here MPI_ERRORS_RETURN) and a message
// naming the call, the argument and what is valid; MPI_REPLACE is no reduction operation.
#include <gtest/gtest.h>

#include <string>

#include "mpi/datatype/construct.h"
#include "mpi/error_codes.h"
#include "mpi/op/op_check.h"
#include "mpi/op/op_user.h"

using namespace plexus::mpi;

namespace {

class OpCheck : public ::testing::Test {
protected:
    void SetUp() override {
        Comm *w = MPI_COMM_WORLD;
        w->magic = Comm::kMagic;
        w->errhandler = MPI_ERRORS_RETURN;
        w->name = "MPI_COMM_WORLD";
        w->rank = 0;
        w->local_procs = w->remote_procs = {0};
    }
    static int class_of(int code) { return error_codes().class_of(code); }
    static std::string text(int code) {
        std::string s;
        EXPECT_TRUE(error_codes().string_of(code, &s)) << code;
        return s;
    }
    // The class of the error, and that the message holds each of the parts.
    static void expect(int rc, int error_class, std::initializer_list<const char *> parts) {
        EXPECT_EQ(class_of(rc), error_class) << text(rc);
        for (const char *p : parts) EXPECT_NE(text(rc).find(p), std::string::npos) << "want \"" << p << "\" in: " << text(rc);
    }
    int a[4] = {1, 2, 3, 4};
    int b[4] = {0, 0, 0, 0};
};

void noop(void *, void *, int *, MPI_Datatype *) {}

}  // namespace

TEST_F(OpCheck, ValidArgumentsPass) {
    EXPECT_EQ(check_reduce_local(a, b, 4, MPI_INT, MPI_SUM), MPI_SUCCESS);
    EXPECT_EQ(check_reduce_local(a, b, 0, MPI_INT, MPI_SUM), MPI_SUCCESS);
    EXPECT_EQ(check_reduce_local(nullptr, nullptr, 0, MPI_INT, MPI_SUM), MPI_SUCCESS);  // no data, no buffer
    EXPECT_EQ(check_reduction_op("MPI_Reduce", MPI_COMM_WORLD, MPI_MAXLOC, MPI_2INT), MPI_SUCCESS);
}

TEST_F(OpCheck, InvalidOpHandles) {
    expect(check_reduce_local(a, b, 4, MPI_INT, MPI_OP_NULL), MPI_ERR_OP, {"MPI_Reduce_local: invalid op: MPI_OP_NULL"});
    Op junk;
    junk.magic = 0;
    expect(check_reduce_local(a, b, 4, MPI_INT, &junk), MPI_ERR_OP, {"MPI_Reduce_local: invalid op", "not an operation"});
    EXPECT_EQ(op_name(MPI_OP_NULL), "MPI_OP_NULL");
    EXPECT_EQ(op_name(MPI_LXOR), "MPI_LXOR");
}

TEST_F(OpCheck, OpNotDefinedForTheType) {
    expect(check_reduce_local(a, b, 4, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP,
           {"MPI_Reduce_local: invalid op for datatype: MPI_BAND is not defined for MPI_DOUBLE: it takes C integers",
            "MPI_BYTE"});
    expect(check_reduce_local(a, b, 2, MPI_2INT, MPI_SUM), MPI_ERR_OP, {"MPI_SUM is not defined for MPI_2INT"});
    expect(check_reduce_local(a, b, 2, MPI_INT, MPI_MINLOC), MPI_ERR_OP,
           {"MPI_MINLOC is not defined for MPI_INT", "MPI_DOUBLE_INT"});
    expect(check_reduce_local(a, b, 2, MPI_WCHAR, MPI_MAX), MPI_ERR_OP, {"MPI_MAX is not defined for MPI_WCHAR"});
    expect(check_reduction_op("MPI_Allreduce", MPI_COMM_WORLD, MPI_REPLACE, MPI_INT), MPI_ERR_OP,
           {"MPI_Allreduce: MPI_REPLACE is not a reduction operation"});
    Op *user = op_create(noop, false);
    EXPECT_EQ(check_reduce_local(a, b, 2, MPI_WCHAR, user), MPI_SUCCESS);
    op_destroy(user);
}

TEST_F(OpCheck, CountTypeAndBuffers) {
    expect(check_reduce_local(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT, {"MPI_Reduce_local: invalid count -1"});
    expect(check_reduce_local(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE, {"MPI_DATATYPE_NULL"});
    Datatype *v = make_vector(2, 1, 2, MPI_INT);  // not committed
    expect(check_reduce_local(a, b, 1, v, MPI_SUM), MPI_ERR_TYPE, {"not committed"});
    commit(v);
    EXPECT_EQ(check_reduce_local(a, b, 1, v, MPI_SUM), MPI_SUCCESS);
    free_handle(v);
    expect(check_reduce_local(nullptr, b, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, {"inbuf is NULL with count 4 of MPI_INT"});
    expect(check_reduce_local(a, nullptr, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, {"inoutbuf is NULL"});
    expect(check_reduce_local(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, {"inbuf is MPI_IN_PLACE"});
    expect(check_reduce_local(a, a, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, {"the same buffer"});
}
