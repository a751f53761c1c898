// MPI_Cancel of sends in the PML (pml_cancel.cc), over the fake BTL pair: the cancel finds the
// message wherever it is at the receiver (unexpected, held for its turn, not arrived yet), a
// matched message stays matched, a send that never left is withdrawn by the sender alone, and
// the messages around a cancelled one arrive intact and in order.
#include <gtest/gtest.h>

#include "pml_pair.h"

namespace plexus::test {
namespace {

class PmlCancel : public PmlPair {
protected:
    // Receives on b from rank 0 with tag; true when one matched within a few polls.
    bool receives(std::vector<uint8_t> &got, int tag, Request *out) {
        *out = recv_req(b, got.data(), got.size(), 0, tag);
        EXPECT_EQ(b.pml->start_recv(out), MPI_SUCCESS);
        for (int i = 0; i < 20 && !out->complete; ++i) engine->poll();
        return out->complete;
    }
    void drain() {
        for (int i = 0; i < 20; ++i) engine->poll();
    }
    // The message a sent after a cancelled one reaches b intact: the cancelled one never does.
    void next_message_arrives(size_t n, int tag) {
        auto data = pattern(n, 99);
        Request sr = send_req(a, data.data(), n, tag);
        ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
        std::vector<uint8_t> got(n, 0xEE);
        Request rr;
        ASSERT_TRUE(receives(got, tag, &rr)) << "the message after the cancelled one did not arrive";
        wait(sr);
        EXPECT_EQ(rr.status.bytes, n);
        EXPECT_EQ(got, data) << "the receive got the cancelled message's bytes";
        Request extra;
        std::vector<uint8_t> more(n);
        EXPECT_FALSE(receives(more, tag, &extra)) << "the cancelled message was delivered after all";
        b.pml->cancel(&extra);
    }
};

TEST_F(PmlCancel, AnUnexpectedEagerMessageIsWithdrawn) {
    auto data = pattern(100, 1);
    Request sr = send_req(a, data.data(), 100, 5);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    ASSERT_TRUE(sr.complete) << "an eager send completes when it leaves";
    drain();  // b holds it as unexpected
    a.pml->cancel_send(&sr);
    EXPECT_FALSE(sr.complete) << "complete before the receiver answered";
    wait(sr);
    EXPECT_TRUE(sr.status.cancelled);
    next_message_arrives(100, 5);
}

TEST_F(PmlCancel, ACancelThatOvertakesItsMessageDropsItOnArrival) {
    b.btl.newest_first = true;  // the CANCEL reaches b before the message
    auto data = pattern(100, 2);
    Request sr = send_req(a, data.data(), 100, 5);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    a.pml->cancel_send(&sr);
    wait(sr);
    EXPECT_TRUE(sr.status.cancelled);
    b.btl.newest_first = false;
    next_message_arrives(100, 5);
}

TEST_F(PmlCancel, AnUnexpectedRendezvousIsWithdrawnBeforeItsDataMoves) {
    auto data = pattern(50000, 3);
    Request sr = send_req(a, data.data(), data.size(), 6);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    drain();
    a.pml->cancel_send(&sr);
    wait(sr);
    EXPECT_TRUE(sr.status.cancelled);
    EXPECT_EQ(b.btl.gets, 0) << "data of a withdrawn rendezvous was read";
    EXPECT_EQ(sr.pml.rdma, nullptr) << "the registration for the get was kept";
    next_message_arrives(50000, 6);
    EXPECT_EQ(b.btl.gets, 1);
}

TEST_F(PmlCancel, AnUnmatchedSynchronousSendIsCancelledWithoutAnAck) {
    auto data = pattern(64, 4);
    Request sr = send_req(a, data.data(), 64, 7, SendMode::Synchronous);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    drain();
    EXPECT_FALSE(sr.complete);
    a.pml->cancel_send(&sr);
    wait(sr);
    EXPECT_TRUE(sr.status.cancelled);
    next_message_arrives(64, 7);
}

TEST_F(PmlCancel, AMatchedSendIsNotCancelled) {
    for (size_t n : {size_t(100), size_t(50000)}) {
        auto data = pattern(n, 5);
        std::vector<uint8_t> got(n, 0xEE);
        Request rr = recv_req(b, got.data(), n, 0, 8);
        Request sr = send_req(a, data.data(), n, 8);
        ASSERT_NO_FATAL_FAILURE(run(rr, sr, true));
        a.pml->cancel_send(&sr);  // completed, not yet retired: the receiver decides
        wait(sr);
        EXPECT_FALSE(sr.status.cancelled) << n;
        EXPECT_EQ(got, data) << n;
    }
}

TEST_F(PmlCancel, ASendThatNeverLeftIsWithdrawnAtOnceAndItsPlaceSkipped) {
    a.btl.refuse_after = 1;  // the first send goes, then the ring is full
    auto first = pattern(100, 6), second = pattern(100, 7), third = pattern(100, 8);
    Request s1 = send_req(a, first.data(), 100, 9), s2 = send_req(a, second.data(), 100, 9);
    ASSERT_EQ(a.pml->start_send(&s1), MPI_SUCCESS);
    ASSERT_EQ(a.pml->start_send(&s2), MPI_SUCCESS);
    ASSERT_FALSE(s2.complete) << "the second send should wait for resources";
    a.pml->cancel_send(&s2);
    EXPECT_TRUE(s2.complete && s2.status.cancelled) << "a blocked send needs no answer";
    a.btl.refuse_after = 0;
    Request s3 = send_req(a, third.data(), 100, 9);
    ASSERT_EQ(a.pml->start_send(&s3), MPI_SUCCESS);
    std::vector<uint8_t> got1(100), got3(100);
    Request r1, r3;
    ASSERT_TRUE(receives(got1, 9, &r1));
    ASSERT_TRUE(receives(got3, 9, &r3)) << "the message after a skipped one was held back";
    EXPECT_EQ(got1, first);
    EXPECT_EQ(got3, third);
}

TEST_F(PmlCancel, AFollowerCompletesWithTheAnswer) {
    auto data = pattern(100, 9);
    Request sr = send_req(a, data.data(), 100, 10);
    Request follower;
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    a.pml->cancel_send(&sr, &follower);
    wait(follower);
    EXPECT_TRUE(follower.status.cancelled);
    EXPECT_TRUE(sr.complete && sr.status.cancelled);
    Request again;  // a second cancel of a withdrawn send asks nobody
    a.pml->cancel_send(&sr, &again);
    EXPECT_TRUE(again.complete && again.status.cancelled);
}

}  // namespace
}  // namespace plexus::test
