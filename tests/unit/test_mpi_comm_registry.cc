// Unit tests of communicator lifetimes (comm/comm_registry): a freed communicator stays while a
// request refers to it and goes (with its context ids and its error handler reference) once
// none does; MPI_Finalize's release takes everything, hidden local communicators included;
// create/free cycles do not grow ids or objects. No PML: nothing here is activated.
#include <gtest/gtest.h>

#include "mpi/comm/comm_registry.h"
#include "mpi/errhandler.h"
#include "mpi/error_report.h"
#include "mpi/request_pool.h"

using namespace plexus::mpi;

namespace {

Comm *make(CommRegistry &reg) {
    const uint32_t id = reg.ids.take_lowest();
    return reg.create(id);
}

}  // namespace

TEST(MpiCommRegistry, FreedCommunicatorWaitsForItsRequests) {
    CommRegistry reg;
    RequestPool pool;
    Comm *c = make(reg);
    const uint32_t id = c->context_id;
    Request *r = pool.get();
    r->comm = c;
    Request *other = pool.get();  // on another communicator: does not hold c
    reg.retire(nullptr, pool, c);
    EXPECT_FALSE(comm_valid(c)) << "the handle is dead at once";
    EXPECT_EQ(reg.retired(), 1u);
    EXPECT_EQ(reg.count(), 1u);
    EXPECT_TRUE(reg.ids.in_use(id)) << "the id stays taken while a request uses the communicator";
    reg.reap(nullptr, pool);
    EXPECT_EQ(reg.retired(), 1u);
    pool.put(r);
    reg.reap(nullptr, pool);
    EXPECT_EQ(reg.retired(), 0u);
    EXPECT_EQ(reg.count(), 0u);
    EXPECT_FALSE(reg.ids.in_use(id));
    pool.put(other);
}

TEST(MpiCommRegistry, ReleaseDropsTheErrhandlerReference) {
    CommRegistry reg;
    RequestPool pool;
    auto *handler = new Errhandler();
    handler->predefined = false;
    handler->action = ErrorAction::Return;
    handler->references = 2;  // the user's handle and the communicator
    Comm *c = make(reg);
    c->errhandler = handler;
    reg.retire(nullptr, pool, c);
    EXPECT_EQ(handler->references, 1);
    errhandler_release(handler);  // the user's MPI_Errhandler_free: deletes it
}

TEST(MpiCommRegistry, FinalizeReleasesEverythingIncludingHiddenLocalCommunicators) {
    CommRegistry reg;
    RequestPool pool;
    Comm *inter = make(reg);
    inter->inter = true;
    inter->local_comm = make(reg);
    make(reg);
    Comm *held = make(reg);
    Request *r = pool.get();
    r->comm = held;
    reg.retire(nullptr, pool, held);
    EXPECT_EQ(reg.count(), 4u);
    EXPECT_EQ(reg.ids.live(), 6u);
    reg.release_all(nullptr);
    EXPECT_EQ(reg.count(), 0u);
    EXPECT_EQ(reg.retired(), 0u);
    EXPECT_EQ(reg.ids.live(), 2u) << "only MPI_COMM_WORLD's and MPI_COMM_SELF's ids";
    pool.put(r);
}

TEST(MpiCommRegistry, TenThousandCyclesReuseOneId) {
    CommRegistry reg;
    RequestPool pool;
    for (int i = 0; i < 10000; ++i) {
        Comm *inter = make(reg);
        inter->inter = true;
        inter->local_comm = make(reg);
        ASSERT_EQ(inter->context_id, 2u);
        ASSERT_EQ(inter->local_comm->context_id, 3u);
        reg.retire(nullptr, pool, inter);
    }
    EXPECT_EQ(reg.count(), 0u);
    EXPECT_EQ(reg.ids.live(), 2u);
    EXPECT_EQ(reg.ids.capacity(), 64u);
}
