// The PML test fixture: two PML instances in one process, wired by a pair of fake BTLs
// (fake_btl.h), with requests built by hand as the MPI layer would, and byte-for-byte transfers.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <vector>

#include "fake_btl.h"
#include "mpi/bml/bml.h"
#include "mpi/communicator.h"
#include "mpi/pml/pml.h"
#include "runtime/progress.h"

namespace plexus::test {

using namespace plexus::mpi;

struct Side {
    FakeBtl btl;
    ProcTable procs;
    Comm comm;
    std::unique_ptr<Pml> pml;
};

class PmlPair : public ::testing::Test {
protected:
    void SetUp() override { build(FakeBtl(256, 1024, 4096), FakeBtl(256, 1024, 4096)); }

    void build(FakeBtl a_btl, FakeBtl b_btl) {
        a.pml.reset();
        b.pml.reset();
        engine = std::make_unique<runtime::ProgressEngine>();
        a.btl = a_btl;
        b.btl = b_btl;
        FakeBtl::connect(a.btl, b.btl);
        for (int r = 0; r < 2; ++r) setup(r == 0 ? a : b, r);
    }

    void setup(Side &s, int rank) {
        runtime::JobInfo job;
        job.rank = rank;
        job.size = 2;
        job.nspace = "test";
        s.procs.init_world(job);
        auto bml = std::make_unique<Bml>(std::vector<plexus_btl_module_t *>{&s.btl.module}, s.procs);
        ASSERT_TRUE(bml->add_procs(1 - rank, 2 - rank).is_ok());
        s.pml = Pml::create(std::move(bml), *engine, s.procs);
        s.comm.context_id = 7;
        s.comm.rank = rank;
        s.comm.local_procs = s.comm.remote_procs = {0, 1};
        s.comm.name = "pair";
        s.pml->add_comm(&s.comm);
        engine->add(FakeBtl::progress, &s.btl);
    }

    void TearDown() override {
        a.pml.reset();
        b.pml.reset();
    }

    static Request send_req(Side &s, const void *buf, size_t n, int tag, SendMode mode = SendMode::Standard) {
        Request r;
        r.kind = RequestKind::Send;
        r.mode = mode;
        r.buf = const_cast<void *>(buf);
        r.bytes = n;
        r.peer = 1 - s.comm.rank;
        r.tag = tag;
        r.comm = &s.comm;
        return r;
    }
    static Request recv_req(Side &s, void *buf, size_t n, int source, int tag) {
        Request r;
        r.kind = RequestKind::Recv;
        r.buf = buf;
        r.bytes = n;
        r.peer = source;
        r.tag = tag;
        r.comm = &s.comm;
        return r;
    }
    void wait(Request &r) {
        ASSERT_EQ(engine->wait_until([&] { return r.complete; }, std::chrono::seconds(10)), PLEXUS_SUCCESS)
            << "request never completed";
    }

    static std::vector<uint8_t> pattern(size_t n, int seed) {
        std::vector<uint8_t> v(n);
        for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 131 + seed * 7 + (i >> 8));
        return v;
    }

    // Starts sr on a and rr on b, the receive posted first or after the message arrived
    // (unexpected), and waits for both.
    void run(Request &rr, Request &sr, bool post_first) {
        if (post_first) {
            ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
        }
        ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
        if (!post_first) {
            engine->poll();
            engine->poll();
            ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
        }
        wait(rr);
        wait(sr);
    }

    // Sends n bytes a -> b with the receive posted first or last; checks every byte.
    void transfer(size_t n, bool post_first) {
        auto data = pattern(n, static_cast<int>(n));
        std::vector<uint8_t> got(n + 1, 0xEE);
        Request rr = recv_req(b, got.data(), n, 0, 5);
        Request sr = send_req(a, data.data(), n, 5);
        ASSERT_NO_FATAL_FAILURE(run(rr, sr, post_first));
        EXPECT_EQ(rr.status.error, MPI_SUCCESS);
        EXPECT_EQ(rr.status.bytes, n);
        EXPECT_EQ(rr.status.source, 0);
        EXPECT_EQ(rr.status.tag, 5);
        EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin())) << n << " bytes differ";
        EXPECT_EQ(got[n], 0xEE) << "wrote past the receive buffer";
    }

    // Sends the ints first, first + 1, ... (n of them) a -> b with one tag, all before any receive
    // is posted; expects b's receives (from rank 0, that tag) to get them in sending order.
    void expect_stream_in_order(int n, int first, int tag) {
        std::vector<int> got(n, -1), v(n);
        std::iota(v.begin(), v.end(), first);
        std::vector<Request> ss(n), rs(n);
        for (int i = 0; i < n; ++i) {
            ss[i] = send_req(a, &v[i], sizeof(int), tag);
            ASSERT_EQ(a.pml->start_send(&ss[i]), MPI_SUCCESS);
        }
        for (int i = 0; i < n; ++i) {
            rs[i] = recv_req(b, &got[i], sizeof(int), 0, tag);
            ASSERT_EQ(b.pml->start_recv(&rs[i]), MPI_SUCCESS);
        }
        for (auto &r : rs) wait(r);
        for (auto &r : ss) wait(r);
        EXPECT_EQ(got, v);
    }

    std::unique_ptr<runtime::ProgressEngine> engine;
    Side a, b;
};

}  // namespace plexus::test
