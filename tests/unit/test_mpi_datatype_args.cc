// Unit tests of the datatype calls' argument checks: each misuse gives its error class and a
// message naming the function, the argument and its value; MPI_BOTTOM (NULL) is a buffer for
// derived types in point-to-point, never for predefined ones; uncommitted types are refused.
#include <gtest/gtest.h>

#include <string>

#include "mpi/arg_check.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/type_args.h"
#include "mpi/error_codes.h"

using namespace plexus::mpi;

namespace {

class MpiDatatypeArgs : public ::testing::Test {
protected:
    void SetUp() override {
        Comm *w = MPI_COMM_WORLD;
        w->magic = Comm::kMagic;
        w->errhandler = MPI_ERRORS_RETURN;
        w->name = "MPI_COMM_WORLD";
        w->rank = 0;
        w->local_procs = w->remote_procs = {0, 1};
    }
    static int class_of(int code) { return error_codes().class_of(code); }
    static std::string text(int code) {
        std::string s;
        EXPECT_TRUE(error_codes().string_of(code, &s)) << code;
        return s;
    }
};

}  // namespace

TEST_F(MpiDatatypeArgs, CountsBlockLengthsArraysAndTypes) {
    int rc = check_count_arg("MPI_Type_contiguous", -3, "count");
    EXPECT_EQ(class_of(rc), MPI_ERR_COUNT);
    EXPECT_NE(text(rc).find("MPI_Type_contiguous: invalid count -3"), std::string::npos) << text(rc);

    const int bl[3] = {1, -2, 1};
    rc = check_blocklengths("MPI_Type_indexed", 3, bl);
    EXPECT_EQ(class_of(rc), MPI_ERR_ARG);
    EXPECT_NE(text(rc).find("array_of_blocklengths[1] = -2"), std::string::npos) << text(rc);
    EXPECT_EQ(class_of(check_blocklength("MPI_Type_vector", -1, -1)), MPI_ERR_ARG);

    rc = check_array("MPI_Type_indexed", nullptr, 2, "array_of_displacements");
    EXPECT_EQ(class_of(rc), MPI_ERR_ARG);
    EXPECT_NE(text(rc).find("array_of_displacements is NULL with count 2"), std::string::npos) << text(rc);
    EXPECT_EQ(check_array("MPI_Type_indexed", nullptr, 0, "array_of_displacements"), MPI_SUCCESS);

    rc = check_type_arg("MPI_Type_vector", MPI_DATATYPE_NULL, "oldtype");
    EXPECT_EQ(class_of(rc), MPI_ERR_TYPE);
    EXPECT_NE(text(rc).find("MPI_Type_vector: invalid oldtype: MPI_DATATYPE_NULL"), std::string::npos) << text(rc);
    EXPECT_EQ(class_of(check_newtype("MPI_Type_dup", nullptr)), MPI_ERR_ARG);
}

TEST_F(MpiDatatypeArgs, UncommittedAndFreedTypes) {
    Datatype *v = make_vector(2, 1, 2, MPI_INT);
    EXPECT_EQ(check_type_arg("MPI_Type_commit", v, "datatype"), MPI_SUCCESS) << "building and querying: fine";
    int data[4];
    int rc = check_pt2pt("MPI_Send", Direction::Send, data, 1, v, 1, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_TYPE);
    EXPECT_NE(text(rc).find("not committed"), std::string::npos) << text(rc);
    commit(v);
    EXPECT_EQ(check_pt2pt("MPI_Send", Direction::Send, data, 1, v, 1, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    datatype_retain(v);  // a pending request keeps the object; the program's handle goes
    free_handle(v);
    rc = check_type_arg("MPI_Type_size", v, "datatype");
    EXPECT_EQ(class_of(rc), MPI_ERR_TYPE);
    EXPECT_NE(text(rc).find("not a datatype (freed"), std::string::npos) << text(rc);
    rc = check_pt2pt("MPI_Send", Direction::Send, data, 1, v, 1, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_TYPE);
    datatype_release(v);
}

TEST_F(MpiDatatypeArgs, MpiBottomIsABufferForDerivedTypesOnly) {
    int rc = check_pt2pt("MPI_Send", Direction::Send, MPI_BOTTOM, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_BUFFER);
    EXPECT_NE(text(rc).find("NULL with count 1 of MPI_INT"), std::string::npos) << text(rc);
    Datatype *c = make_contiguous(1, MPI_INT);
    commit(c);
    EXPECT_EQ(check_pt2pt("MPI_Send", Direction::Send, MPI_BOTTOM, 1, c, 1, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(check_pt2pt("MPI_Recv", Direction::Recv, MPI_BOTTOM, 1, c, 1, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    free_handle(c);
}
