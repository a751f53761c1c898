// The PML between two in-process peers over a fake BTL: matching order, unexpected messages,
// eager and rendezvous (get and fragments), truncation, synchronous sends, cancel, probe, and
// what happens when the BTL refuses sends or delivers out of order.
#include <gtest/gtest.h>

#include <numeric>

#include "mpi/pml/match_queues.h"
#include "pml_pair.h"

using namespace plexus;
using namespace plexus::mpi;
using plexus::test::FakeBtl;
using plexus::test::PmlPair;

namespace {

TEST_F(PmlPair, EagerRendezvousGetAndFragmentsCarryEveryByte) {
    for (size_t n : {0, 1, 200, 240, 241, 1000, 4095, 4096, 100000, 1 << 20}) {
        transfer(n, true);
        transfer(n, false);
    }
    EXPECT_GT(b.btl.gets, 0) << "large messages should go by get";
}

TEST_F(PmlPair, WithoutSingleCopyLargeMessagesGoAsFragments) {
    build(FakeBtl(256, 1024, 0), FakeBtl(256, 1024, 0));
    for (size_t n : {4096, 100000}) transfer(n, true);
    EXPECT_EQ(b.btl.gets, 0);
}

// A BTL with a single-copy window (btl_sm: fragments faster again from a few MiB): get inside
// it, fragments above rdma_limit, every byte delivered either way.
TEST_F(PmlPair, SingleCopyOnlyInsideTheBtlsWindow) {
    a.btl.module.rdma_limit = b.btl.module.rdma_limit = 16384;
    transfer(16384, true);
    EXPECT_EQ(b.btl.gets, 1) << "at the limit: get";
    transfer(16385, true);
    transfer(100000, false);
    EXPECT_EQ(b.btl.gets, 1) << "above the limit: fragments";
    a.btl.module.minor = b.btl.module.minor = 2;  // a 1.2 module has no limit
    transfer(100000, true);
    EXPECT_EQ(b.btl.gets, 2);
}

TEST_F(PmlPair, AFailingGetFallsBackToFragments) {
    b.btl.get_result = PLEXUS_ERR_UNREACH;
    transfer(50000, true);
    transfer(50000, false);
    EXPECT_GT(b.btl.gets, 0);
}

// A receiver that stops draining fragments (descheduled on a busy machine): the sender's BTL
// refuses fragments and lowers rdma_threshold, as btl_sm does after btl_sm_single_copy_stall;
// the sender then writes the rest by put and completes without the receiver, which finds every
// byte in place once it runs again.
class PmlStalledReceiver : public PmlPair {
protected:
    // 100000 bytes by fragments (below the 1 MiB threshold); the ring fills after 10 of them.
    void SetUp() override {
        build(FakeBtl(256, 1024, 1 << 20), FakeBtl(256, 1024, 1 << 20));
        data = pattern(kBytes, 3);
        got.assign(kBytes + 1, 0xEE);
        rr = recv_req(b, got.data(), kBytes, 0, 5);
        sr = send_req(a, data.data(), kBytes, 5);
        a.btl.refuse_after = 1 + 10;  // the RTS and 10 fragments
        ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
        ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
        for (int i = 0; i < 50; ++i) engine->poll();
        ASSERT_FALSE(sr.complete) << "the ring is full and the threshold above the rest";
        ASSERT_FALSE(rr.complete);
    }
    void expect_every_byte() {
        wait(rr);
        wait(sr);
        EXPECT_EQ(rr.status.error, MPI_SUCCESS);
        EXPECT_EQ(rr.status.bytes, kBytes);
        EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin()));
        EXPECT_EQ(got[kBytes], 0xEE) << "wrote past the receive buffer";
    }
    static constexpr size_t kBytes = 100000;
    std::vector<uint8_t> data, got;
    Request rr, sr;
};

TEST_F(PmlStalledReceiver, TheSenderPutsTheRestAndCompletesWithoutTheReceiver) {
    a.btl.module.rdma_threshold = 4096;  // the BTL saw its fragments stay away
    engine->poll();
    EXPECT_EQ(a.btl.puts, 1) << "the rest in one put";
    EXPECT_TRUE(sr.complete) << "a put needs only the sender";
    EXPECT_FALSE(rr.complete) << "the receiver learns of it from a message behind the fragments";
    a.btl.refuse_after = 0;  // the receiver drains again
    expect_every_byte();
    EXPECT_EQ(a.btl.puts, 1);
}

TEST_F(PmlStalledReceiver, AFailingPutLeavesTheRestToFragments) {
    a.btl.put_result = PLEXUS_ERR_UNREACH;
    a.btl.module.rdma_threshold = 4096;
    engine->poll();
    EXPECT_EQ(a.btl.puts, 1);
    EXPECT_FALSE(sr.complete);
    a.btl.refuse_after = 0;
    expect_every_byte();
    EXPECT_EQ(a.btl.puts, 1) << "no second try after the BTL said the peer is unreachable";
}

TEST_F(PmlStalledReceiver, ARestBelowTheThresholdStaysOnFragments) {
    a.btl.module.rdma_threshold = kBytes;  // lowered, but the rest is smaller
    engine->poll();
    a.btl.refuse_after = 0;
    expect_every_byte();
    EXPECT_EQ(a.btl.puts, 0);
}

TEST_F(PmlPair, ReceivesMatchInPostingOrderAndMessagesInSendingOrder) {
    int v[6] = {10, 11, 12, 13, 14, 15};
    int got[6] = {};
    Request rs[6], ss[6];
    // Tags 1,2,1,2,1,2; receives: tag 2, ANY, tag 1, ANY, ANY, ANY.
    int tags[6] = {1, 2, 1, 2, 1, 2};
    int want[6] = {2, MPI_ANY_TAG, 1, MPI_ANY_TAG, MPI_ANY_TAG, MPI_ANY_TAG};
    for (int i = 0; i < 6; ++i) {
        rs[i] = recv_req(b, &got[i], sizeof(int), i % 2 ? MPI_ANY_SOURCE : 0, want[i]);
        ASSERT_EQ(b.pml->start_recv(&rs[i]), MPI_SUCCESS);
    }
    for (int i = 0; i < 6; ++i) {
        ss[i] = send_req(a, &v[i], sizeof(int), tags[i]);
        ASSERT_EQ(a.pml->start_send(&ss[i]), MPI_SUCCESS);
    }
    for (auto &r : rs) wait(r);
    // msg0(tag1)->r1(ANY)? No: r0 wants tag 2 so msg0 goes to the first matching posted, r1.
    EXPECT_EQ(got[1], 10);
    EXPECT_EQ(got[0], 11);  // first tag-2 message
    EXPECT_EQ(got[2], 12);
    EXPECT_EQ(got[3], 13);
    EXPECT_EQ(got[4], 14);
    EXPECT_EQ(got[5], 15);
    EXPECT_EQ(rs[1].status.tag, 1);
    EXPECT_EQ(rs[0].status.tag, 2);
}

TEST_F(PmlPair, RefusedSendsAreRetriedInOrder) {
    a.btl.refuse_every = 3;
    b.btl.refuse_every = 2;
    expect_stream_in_order(200, 0, 3);
    EXPECT_GT(a.btl.refused, 0);
    // And a large one through refusals too (CTS/FIN controls queued).
    transfer(300000, true);
}

TEST_F(PmlPair, OvertakingChannelsAreReorderedBySequence) {
    a.btl.swap_pairs = true;
    b.btl.swap_pairs = true;
    const int n = 50;
    std::vector<int> got(n, -1), v(n);
    std::iota(v.begin(), v.end(), 100);
    std::vector<Request> ss(n), rs(n);
    for (int i = 0; i < n; ++i) {
        rs[i] = recv_req(b, &got[i], sizeof(int), MPI_ANY_SOURCE, MPI_ANY_TAG);
        ASSERT_EQ(b.pml->start_recv(&rs[i]), MPI_SUCCESS);
    }
    for (int i = 0; i < n; ++i) {
        ss[i] = send_req(a, &v[i], sizeof(int), i);
        ASSERT_EQ(a.pml->start_send(&ss[i]), MPI_SUCCESS);
    }
    for (auto &r : rs) wait(r);
    EXPECT_EQ(got, v);
    transfer(20000, false);
}

// A channel that hands over the newest message first leaves the earlier ones to arrive after
// later ones, thousands deep (what a sender overflowing its fast box into the FIFO does): the
// receives still get them in sending order.
TEST_F(PmlPair, ADeepBacklogOfEarlyArrivalsIsDeliveredInSendingOrder) {
    b.btl.newest_first = true;
    expect_stream_in_order(3000, 1000, 7);
}

TEST_F(PmlPair, TruncationKeepsTheBufferBoundAndTheNextMessageIntact) {
    for (size_t n : {100, 3000, 200000}) {
        auto data = pattern(n, 1);
        std::vector<uint8_t> small(n / 2 + 8, 0xAB);
        Request rr = recv_req(b, small.data(), n / 2, 0, 9);
        Request sr = send_req(a, data.data(), n, 9);
        ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
        ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
        wait(rr);
        wait(sr);
        EXPECT_EQ(rr.status.error, MPI_ERR_TRUNCATE) << n;
        EXPECT_EQ(rr.status.bytes, n) << "the status keeps the length that was sent";
        EXPECT_TRUE(std::equal(small.begin(), small.begin() + n / 2, data.begin()));
        for (size_t i = n / 2; i < small.size(); ++i) ASSERT_EQ(small[i], 0xAB) << "overwrote byte " << i;
        transfer(n, true);
    }
}

TEST_F(PmlPair, SynchronousSendCompletesOnlyAfterTheMatch) {
    for (size_t n : {8, 10000}) {
        auto data = pattern(n, 3);
        std::vector<uint8_t> got(n);
        Request sr = send_req(a, data.data(), n, 4, SendMode::Synchronous);
        ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
        for (int i = 0; i < 100; ++i) engine->poll();
        EXPECT_FALSE(sr.complete) << n << "-byte Ssend completed before any receive was posted";
        Request rr = recv_req(b, got.data(), n, 0, 4);
        ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
        wait(rr);
        wait(sr);
        EXPECT_EQ(got, data);
    }
}

// A BTL that still holds a send's bytes for its peer (btl_tcp while the connection is made; BTL
// 1.4's pending_to): the send completes only once the BTL has let go of them, so that MPI_Send and
// MPI_Wait return with the message out of the process. A 1.3 module has no pending_to: at once.
TEST_F(PmlPair, ASendCompletesOnlyOnceItsBtlNoLongerHoldsItsBytes) {
    for (size_t n : {8, 10000}) {  // eager; rendezvous (FIN after the receiver's get)
        auto data = pattern(n, 5);
        std::vector<uint8_t> got(n);
        a.btl.held = 1;
        Request sr = send_req(a, data.data(), n, 6);
        ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
        Request rr = recv_req(b, got.data(), n, 0, 6);
        ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
        wait(rr);
        EXPECT_EQ(got, data);
        for (int i = 0; i < 100; ++i) engine->poll();
        EXPECT_FALSE(sr.complete) << n << "-byte send completed while its BTL held bytes for the peer";
        a.btl.held = 0;
        wait(sr);
        EXPECT_EQ(sr.status.bytes, n);
    }
    a.btl.held = 1;
    a.btl.module.minor = 3;
    auto data = pattern(8, 6);
    Request sr = send_req(a, data.data(), 8, 7);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    EXPECT_TRUE(sr.complete) << "a BTL 1.3 module's eager send is complete once accepted";
    a.btl.held = 0;
    a.btl.module.minor = PLEXUS_BTL_MINOR;
    std::vector<uint8_t> got(8);
    Request rr = recv_req(b, got.data(), 8, 0, 7);
    ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
    wait(rr);
    EXPECT_EQ(got, data);
}

TEST_F(PmlPair, ProbeSeesSizeWithoutConsumingAndCancelOnlyUnmatched) {
    auto data = pattern(9000, 4);
    Request sr = send_req(a, data.data(), data.size(), 6);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    bool found = false;
    ProbeResult pr;
    ASSERT_EQ(engine->wait_until([&] {
        b.pml->iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, &b.comm, &found, &pr);
        return found;
    }, std::chrono::seconds(5)), PLEXUS_SUCCESS);
    EXPECT_EQ(pr.bytes, 9000u);
    EXPECT_EQ(pr.tag, 6);
    EXPECT_EQ(pr.source, 0);
    b.pml->iprobe(0, 7, &b.comm, &found, &pr);
    EXPECT_FALSE(found);

    int x = 0;
    Request never = recv_req(b, &x, sizeof x, 0, 77);
    ASSERT_EQ(b.pml->start_recv(&never), MPI_SUCCESS);
    EXPECT_TRUE(b.pml->cancel(&never));
    EXPECT_TRUE(never.complete);
    EXPECT_TRUE(never.status.cancelled);

    std::vector<uint8_t> got(9000);
    Request rr = recv_req(b, got.data(), got.size(), 0, 6);
    ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
    wait(rr);
    EXPECT_FALSE(b.pml->cancel(&rr));
    EXPECT_FALSE(rr.status.cancelled);
    wait(sr);
    EXPECT_EQ(got, data);
}

// b's process left (disconnect) and a newcomer, with a PML of its own, was given its id: a must
// number its messages to it from 0 again, or they wait at b for ever behind the old sequence.
TEST_F(PmlPair, ANewcomerUnderTheIdOfAProcessThatLeftGetsItsMessages) {
    for (size_t n : {8, 100, 3000}) transfer(n, true);
    a.pml->bml().del_procs({1});
    a.pml->forget_peer(1);
    b.pml.reset();
    auto bml = std::make_unique<Bml>(std::vector<plexus_btl_module_t *>{&b.btl.module}, b.procs);
    ASSERT_TRUE(bml->add_procs(0, 1).is_ok());
    b.pml = Pml::create(std::move(bml), *engine, b.procs);
    b.pml->add_comm(&b.comm);
    transfer(8, true);
    transfer(8, false);
    transfer(3000, false);
}

TEST_F(PmlPair, MessagesForACommunicatorNotYetCreatedWaitForIt) {
    Comm later_a, later_b;
    for (auto *c : {&later_a, &later_b}) {
        c->context_id = 40;
        c->local_procs = c->remote_procs = {0, 1};
    }
    later_a.rank = 0;
    later_b.rank = 1;
    a.pml->add_comm(&later_a);
    int v = 42, got = 0;
    Request sr = send_req(a, &v, sizeof v, 1);
    sr.comm = &later_a;
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    for (int i = 0; i < 10; ++i) engine->poll();
    b.pml->add_comm(&later_b);
    Request rr = recv_req(b, &got, sizeof got, 0, 1);
    rr.comm = &later_b;
    ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
    wait(rr);
    EXPECT_EQ(got, 42);
    a.pml->remove_comm(&later_a);
    b.pml->remove_comm(&later_b);
}

// The world of job-x, of `size` processes.
ProcTable world_of_job_x(uint32_t size) {
    ProcTable procs;
    runtime::JobInfo job;
    job.size = size;
    job.nspace = "job-x";
    procs.init_world(job);
    return procs;
}

TEST(Bml, APeerNoBtlReachesIsNamedWithTheSelectedBtls) {
    FakeBtl btl;
    btl.peer_id = 5;  // reaches nobody we ask for
    ProcTable procs = world_of_job_x(3);
    Bml bml({&btl.module}, procs);
    auto s = bml.add_procs(1, 2);
    ASSERT_FALSE(s.is_ok());
    EXPECT_NE(s.message.find("process 1 of job job-x"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("fake"), std::string::npos) << s.message;
}

TEST(Bml, AnIdIsHeldWhileItHasPathsOrSomeModuleMayStillDeliverUnderIt) {
    FakeBtl btl;
    ProcTable procs = world_of_job_x(2);
    Bml bml({&btl.module}, procs);
    ASSERT_TRUE(bml.add_procs(1, 2).is_ok());
    EXPECT_TRUE(bml.holds(1)) << "it has paths";
    bml.del_procs({1});
    EXPECT_FALSE(bml.holds(1));
    btl.holding = {1};
    EXPECT_TRUE(bml.holds(1)) << "the module may still deliver a late message under it";
    EXPECT_FALSE(bml.holds(7));
    btl.holding.clear();
    btl.module.minor = 4;  // built before holds_proc: it cannot say
    EXPECT_TRUE(bml.holds(1));
    EXPECT_TRUE(bml.holds(7));
}

TEST(Bml, ModulesOfTheDescriptorOnlyInterfaceAreLeftOut) {
    FakeBtl btl;
    btl.module.minor = 0;
    std::string why;
    EXPECT_FALSE(btl_module_usable(&btl.module, &why));
    EXPECT_NE(why.find("no data path"), std::string::npos) << why;
    ProcTable procs;
    Bml bml({&btl.module}, procs);
    EXPECT_TRUE(bml.modules().empty());
}

}  // namespace

namespace {

Request posted_recv(int source, int tag) {
    Request r;
    r.kind = RequestKind::Recv;
    r.peer = source;
    r.tag = tag;
    return r;
}

Unexpected *message(int source, int tag) {
    auto *u = new Unexpected();
    u->source = source;
    u->tag = tag;
    return u;
}

TEST(ContextQueues, TheEarlierPostedOfSpecificAndWildcardReceivesWins) {
    ContextQueues q;
    Request specific = posted_recv(1, 5), wild = posted_recv(MPI_ANY_SOURCE, MPI_ANY_TAG);
    ASSERT_EQ(q.take_or_post(&specific), nullptr);
    ASSERT_EQ(q.take_or_post(&wild), nullptr);
    EXPECT_EQ(q.match(1, 5), &specific);
    EXPECT_EQ(q.match(1, 5), &wild);
    EXPECT_EQ(q.match(1, 5), nullptr);

    Request wild2 = posted_recv(MPI_ANY_SOURCE, 5), specific2 = posted_recv(3, MPI_ANY_TAG);
    q.take_or_post(&wild2);
    q.take_or_post(&specific2);
    EXPECT_EQ(q.match(3, 5), &wild2);
    EXPECT_EQ(q.match(3, 9), &specific2);
}

TEST(ContextQueues, WildcardReceivesTakeTheEarliestArrivalAcrossSources) {
    ContextQueues q;
    Unexpected *a = message(2, 7), *b = message(0, 7), *c = message(2, 8);
    q.keep(a);
    q.keep(b);
    q.keep(c);
    Request any = posted_recv(MPI_ANY_SOURCE, MPI_ANY_TAG);
    EXPECT_EQ(q.peek(MPI_ANY_SOURCE, MPI_ANY_TAG), a);
    EXPECT_EQ(q.take_or_post(&any), a);
    Request tag8 = posted_recv(MPI_ANY_SOURCE, 8);
    EXPECT_EQ(q.take_or_post(&tag8), c);
    Request from0 = posted_recv(0, MPI_ANY_TAG);
    EXPECT_EQ(q.take_or_post(&from0), b);
    EXPECT_FALSE(q.has_unexpected());
    delete a;
    delete b;
    delete c;
}

TEST(ContextQueues, AnyTagNeverMatchesTheNegativeTagsOfInternalTraffic) {
    ContextQueues q;
    Unexpected *internal = message(1, -12);
    q.keep(internal);
    Request any = posted_recv(1, MPI_ANY_TAG);
    EXPECT_EQ(q.take_or_post(&any), nullptr);
    EXPECT_EQ(q.match(1, -12), nullptr) << "the ANY_TAG receive must not take it";
    Request exact = posted_recv(1, -12);
    EXPECT_EQ(q.take_or_post(&exact), internal);
    EXPECT_TRUE(q.unpost(&any));
    EXPECT_FALSE(q.unpost(&any));
    delete internal;
}

}  // namespace
