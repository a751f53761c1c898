// Unit tests of the argument checks made before the PML: each invalid argument gives its error
// class and a message naming the function, the argument, its value and what is valid; valid
// arguments (and the special values) pass; the communicator's error handler decides between
// returning a code (MPI_ERRORS_RETURN) and aborting (MPI_ERRORS_ARE_FATAL), and errors about
// no valid communicator go to MPI_COMM_WORLD's handler.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mpi/arg_check.h"
#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/request_check.h"
#include "mpi/request_pool.h"

using namespace plexus::mpi;

namespace {

struct Aborted : std::runtime_error {
    int status;
    Aborted(int s, const std::string &m) : std::runtime_error(m), status(s) {}
};

[[noreturn]] void throwing_abort(int status, const std::string &message) { throw Aborted(status, message); }

class MpiArgCheck : public ::testing::Test {
protected:
    void SetUp() override {
        for (Comm *c : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
            c->magic = Comm::kMagic;
            c->errhandler = MPI_ERRORS_RETURN;
        }
        MPI_COMM_WORLD->name = "MPI_COMM_WORLD";
        MPI_COMM_WORLD->rank = 0;
        MPI_COMM_WORLD->local_procs = MPI_COMM_WORLD->remote_procs = {0, 1, 2, 3};
        MPI_COMM_SELF->name = "MPI_COMM_SELF";
        MPI_COMM_SELF->rank = 0;
        MPI_COMM_SELF->local_procs = MPI_COMM_SELF->remote_procs = {0};
        set_abort_hook(throwing_abort);
    }
    void TearDown() override { set_abort_hook(nullptr); }

    // The class of code and its string.
    static int class_of(int code) { return error_codes().class_of(code); }
    static std::string text(int code) {
        std::string s;
        EXPECT_TRUE(error_codes().string_of(code, &s)) << code;
        return s;
    }
    int send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
        return check_pt2pt("MPI_Send", Direction::Send, buf, count, type, dest, tag, comm);
    }
    int recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm) {
        return check_pt2pt("MPI_Recv", Direction::Recv, buf, count, type, source, tag, comm);
    }
    int data[4] = {};
};

}  // namespace

TEST_F(MpiArgCheck, ValidArgumentsPass) {
    EXPECT_EQ(send(data, 4, MPI_INT, 3, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(send(data, 4, MPI_INT, MPI_PROC_NULL, kTagUpperBound, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(send(nullptr, 0, MPI_INT, 0, 0, MPI_COMM_SELF), MPI_SUCCESS);
    EXPECT_EQ(recv(data, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(recv(data, 4, MPI_DOUBLE_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(check_probe("MPI_Probe", MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_SUCCESS);
}

TEST_F(MpiArgCheck, InvalidRank) {
    int rc = send(data, 1, MPI_INT, 7, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_RANK);
    EXPECT_EQ(text(rc), "MPI_Send: invalid rank 7: MPI_COMM_WORLD has 4 ranks (valid 0..3, MPI_PROC_NULL)");
    rc = send(data, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_RANK) << "MPI_ANY_SOURCE is no destination";
    rc = recv(data, 1, MPI_INT, -3, 0, MPI_COMM_SELF);
    EXPECT_EQ(class_of(rc), MPI_ERR_RANK);
    EXPECT_EQ(text(rc),
              "MPI_Recv: invalid source rank -3: MPI_COMM_SELF has 1 rank (valid 0..0, MPI_ANY_SOURCE, MPI_PROC_NULL)");
    rc = check_probe("MPI_Iprobe", 4, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_RANK);
}

TEST_F(MpiArgCheck, InvalidTag) {
    int rc = send(data, 1, MPI_INT, 0, -1, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_TAG);
    EXPECT_EQ(text(rc), "MPI_Send: invalid tag -1: send tags are 0..2147483647 (MPI_TAG_UB)")
        << "MPI_ANY_TAG is no send tag";
    rc = recv(data, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_TAG);
    EXPECT_EQ(text(rc), "MPI_Recv: invalid tag -5: receive tags are 0..2147483647 (MPI_TAG_UB) or MPI_ANY_TAG");
    EXPECT_EQ(class_of(check_probe("MPI_Probe", 0, -7, MPI_COMM_WORLD)), MPI_ERR_TAG);
}

TEST_F(MpiArgCheck, InvalidCount) {
    const int rc = send(data, -2, MPI_INT, 0, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_COUNT);
    EXPECT_EQ(text(rc), "MPI_Send: invalid count -2: counts are 0 or more");
}

TEST_F(MpiArgCheck, InvalidDatatype) {
    int rc = send(data, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_TYPE);
    EXPECT_EQ(text(rc), "MPI_Send: invalid datatype: MPI_DATATYPE_NULL");
    rc = recv(data, 1, reinterpret_cast<MPI_Datatype>(data), 0, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_TYPE);
    EXPECT_NE(text(rc).find("not a datatype"), std::string::npos) << text(rc);
    Datatype uncommitted = *MPI_INT;
    uncommitted.committed = false;
    rc = send(data, 1, &uncommitted, 0, 0, MPI_COMM_WORLD);
    EXPECT_EQ(text(rc), "MPI_Send: datatype MPI_INT is not committed (MPI_Type_commit)");
}

TEST_F(MpiArgCheck, InvalidBuffer) {
    const int rc = send(nullptr, 3, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    EXPECT_EQ(class_of(rc), MPI_ERR_BUFFER);
    EXPECT_EQ(text(rc), "MPI_Send: invalid buffer: NULL with count 3 of MPI_DOUBLE");
}

TEST_F(MpiArgCheck, InvalidCommunicator) {
    int rc = send(data, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
    EXPECT_EQ(class_of(rc), MPI_ERR_COMM);
    EXPECT_EQ(text(rc), "MPI_Send: invalid communicator: MPI_COMM_NULL");
    rc = recv(data, 1, MPI_INT, 0, 0, reinterpret_cast<MPI_Comm>(data));
    EXPECT_EQ(class_of(rc), MPI_ERR_COMM);
    EXPECT_NE(text(rc).find("not a communicator"), std::string::npos) << text(rc);
    EXPECT_EQ(class_of(check_comm("MPI_Comm_rank", MPI_COMM_NULL)), MPI_ERR_COMM);
}

TEST_F(MpiArgCheck, TheFirstWrongArgumentIsReported) {
    // Communicator first (the others are judged against it), then count, type, buffer, rank, tag.
    EXPECT_EQ(class_of(send(nullptr, -1, MPI_DATATYPE_NULL, 9, -1, MPI_COMM_NULL)), MPI_ERR_COMM);
    EXPECT_EQ(class_of(send(nullptr, -1, MPI_DATATYPE_NULL, 9, -1, MPI_COMM_WORLD)), MPI_ERR_COUNT);
    EXPECT_EQ(class_of(send(nullptr, 1, MPI_DATATYPE_NULL, 9, -1, MPI_COMM_WORLD)), MPI_ERR_TYPE);
    EXPECT_EQ(class_of(send(nullptr, 1, MPI_INT, 9, -1, MPI_COMM_WORLD)), MPI_ERR_BUFFER);
    EXPECT_EQ(class_of(send(data, 1, MPI_INT, 9, -1, MPI_COMM_WORLD)), MPI_ERR_RANK);
    EXPECT_EQ(class_of(send(data, 1, MPI_INT, 1, -1, MPI_COMM_WORLD)), MPI_ERR_TAG);
}

TEST_F(MpiArgCheck, InvalidRequests) {
    RequestPool pool;
    Request *live = pool.get();
    Request *dead = pool.get();
    pool.put(dead);
    MPI_Request requests[3] = {live, MPI_REQUEST_NULL, dead};
    EXPECT_EQ(check_request_array("MPI_Waitall", 2, requests), MPI_SUCCESS);
    int rc = check_request_array("MPI_Waitall", 3, requests);
    EXPECT_EQ(class_of(rc), MPI_ERR_REQUEST);
    EXPECT_NE(text(rc).find("MPI_Waitall: invalid request [2]"), std::string::npos) << text(rc);
    rc = check_request_array("MPI_Testall", -1, requests);
    EXPECT_EQ(class_of(rc), MPI_ERR_COUNT);
    rc = check_request_array("MPI_Waitany", 2, nullptr);
    EXPECT_EQ(class_of(rc), MPI_ERR_ARG);
    EXPECT_EQ(text(rc), "MPI_Waitany: array_of_requests is NULL with count 2");
    pool.put(live);
}

TEST_F(MpiArgCheck, FatalHandlerAbortsWithTheMessage) {
    MPI_COMM_SELF->errhandler = MPI_ERRORS_ARE_FATAL;
    try {
        send(data, 1, MPI_INT, 1, 0, MPI_COMM_SELF);
        FAIL() << "no abort";
    } catch (const Aborted &a) {
        EXPECT_EQ(a.status, MPI_ERR_RANK);
        EXPECT_EQ(std::string(a.what()),
                  "MPI_Send: invalid rank 1: MPI_COMM_SELF has 1 rank (valid 0..0, MPI_PROC_NULL) "
                  "(MPI_ERR_RANK under MPI_ERRORS_ARE_FATAL on MPI_COMM_SELF)");
    }
    // MPI_COMM_WORLD still returns.
    EXPECT_EQ(class_of(send(data, 1, MPI_INT, 9, 0, MPI_COMM_WORLD)), MPI_ERR_RANK);
}

TEST_F(MpiArgCheck, ErrorsWithoutAValidCommunicatorGoToWorldsHandler) {
    MPI_COMM_WORLD->errhandler = MPI_ERRORS_ARE_FATAL;
    EXPECT_THROW(send(data, 1, MPI_INT, 0, 0, MPI_COMM_NULL), Aborted);
    MPI_COMM_WORLD->errhandler = MPI_ERRORS_RETURN;
    MPI_COMM_SELF->errhandler = MPI_ERRORS_ARE_FATAL;
    EXPECT_EQ(class_of(send(data, 1, MPI_INT, 0, 0, MPI_COMM_NULL)), MPI_ERR_COMM);
}

TEST_F(MpiArgCheck, NullPointers) {
    const int rc = check_pointer("MPI_Comm_rank", MPI_COMM_WORLD, nullptr, "rank");
    EXPECT_EQ(class_of(rc), MPI_ERR_ARG);
    EXPECT_EQ(text(rc), "MPI_Comm_rank: rank is NULL");
    EXPECT_EQ(check_pointer("MPI_Comm_rank", MPI_COMM_WORLD, data, "rank"), MPI_SUCCESS);
}
