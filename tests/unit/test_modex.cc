// Unit tests of the modex over a scripted backend: card keys, the init fence committing the
// cards, lazy fetching with its cache, and peers of other namespaces.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fake_backend.h"
#include "runtime/modex.h"

using namespace plexus::runtime;
using plexus::test::FakeBackend;
using plexus::test::launched_job;
using ::testing::ElementsAre;

namespace {

std::vector<uint8_t> bytes(const std::string &s) { return {s.begin(), s.end()}; }

TEST(Modex, CardKeyIsPrefixedComponentName) {
    EXPECT_EQ(Modex::card_key("btl_sm"), "plexus.card.btl_sm");
}

TEST(Modex, PutWaitsForTheInitFenceToCommit) {
    FakeBackend b(launched_job(1, 4));
    Modex m(b);
    ASSERT_TRUE(m.put("btl_sm", "abc", 3));
    ASSERT_TRUE(m.put("btl_tcp", "xyz", 3));
    EXPECT_FALSE(m.fenced());
    ASSERT_TRUE(m.commit_and_fence(false, 0));
    EXPECT_TRUE(m.fenced());
    EXPECT_THAT(b.calls, ElementsAre("put plexus.card.btl_sm", "put plexus.card.btl_tcp", "commit", "fence"));
    EXPECT_EQ(b.puts["plexus.card.btl_sm"], bytes("abc"));
}

TEST(Modex, PutAfterTheInitFenceIsCommittedAtOnce) {
    FakeBackend b(launched_job(0, 2));
    Modex m(b);
    ASSERT_TRUE(m.commit_and_fence(false, 0));
    b.calls.clear();
    ASSERT_TRUE(m.put("dpm_ud", "late", 4));
    EXPECT_THAT(b.calls, ElementsAre("put plexus.card.dpm_ud", "commit"));
}

TEST(Modex, PeerCardsAreFetchedOnceAndCached) {
    FakeBackend b(launched_job(0, 3));
    b.remote[{{"fakejob", 2}, "plexus.card.btl_sm"}] = bytes("peer2");
    Modex m(b);
    const Modex::Card *card = nullptr;
    ASSERT_TRUE(m.get({"fakejob", 2}, "btl_sm", 5, &card));
    EXPECT_EQ(*card, bytes("peer2"));
    const Modex::Card *again = nullptr;
    ASSERT_TRUE(m.get({"fakejob", 2}, "btl_sm", 5, &again));
    EXPECT_EQ(again, card);  // same storage: what the host API hands out stays valid
    EXPECT_THAT(b.calls, ElementsAre("get fakejob:2 plexus.card.btl_sm"));
}

TEST(Modex, MissesAreNotCachedSoALatePutIsSeen) {
    FakeBackend b(launched_job(0, 1));
    Modex m(b);
    const Modex::Card *card = nullptr;
    Status s = m.get({"childjob", 0}, "btl_sm", 1, &card);
    EXPECT_EQ(s.code, PLEXUS_ERR_NOT_FOUND);
    b.remote[{{"childjob", 0}, "plexus.card.btl_sm"}] = bytes("child");
    ASSERT_TRUE(m.get({"childjob", 0}, "btl_sm", 1, &card));
    EXPECT_EQ(*card, bytes("child"));
    EXPECT_EQ(b.calls.size(), 2u);
}

TEST(Modex, OwnCardComesFromThisProcessWithoutAsking) {
    FakeBackend b(launched_job(3, 4));
    Modex m(b);
    ASSERT_TRUE(m.put("btl_sm", "mine", 4));
    const Modex::Card *card = nullptr;
    ASSERT_TRUE(m.get({"fakejob", 3}, "btl_sm", 1, &card));
    EXPECT_EQ(*card, bytes("mine"));
    EXPECT_EQ(m.get({"fakejob", 3}, "btl_tcp", 1, &card).code, PLEXUS_ERR_NOT_FOUND);
    EXPECT_THAT(b.calls, ElementsAre("put plexus.card.btl_sm"));
}

// MPI_Comm_disconnect drops a departed process's cards (fetched or carried by dpm_ud) and only
// its: the neighbours in the key order (rank 1 and 3 of the same job) keep theirs, and a later
// get asks the server again.
TEST(Modex, ForgetDropsEveryCardOfOnePeerAndNoOther) {
    FakeBackend b(launched_job(0, 1));
    b.remote[{{"childjob", 2}, "plexus.card.btl_sm"}] = bytes("sm2");
    b.remote[{{"childjob", 2}, "plexus.card.btl_tcp"}] = bytes("tcp2");
    Modex m(b);
    const Modex::Card *card = nullptr;
    ASSERT_TRUE(m.get({"childjob", 2}, "btl_sm", 1, &card));
    ASSERT_TRUE(m.get({"childjob", 2}, "btl_tcp", 1, &card));
    m.remember({"childjob", 2}, "plexus.card.dpm_ud", bytes("ud2"));
    m.remember({"childjob", 1}, "plexus.card.btl_sm", bytes("sm1"));
    m.remember({"childjob", 3}, "plexus.card.btl_sm", bytes("sm3"));
    EXPECT_EQ(m.forget({"childjob", 2}), 3u);
    EXPECT_EQ(m.forget({"childjob", 2}), 0u);
    b.calls.clear();
    ASSERT_TRUE(m.get({"childjob", 1}, "btl_sm", 1, &card));
    EXPECT_EQ(*card, bytes("sm1"));
    ASSERT_TRUE(m.get({"childjob", 3}, "btl_sm", 1, &card));
    EXPECT_EQ(*card, bytes("sm3"));
    EXPECT_TRUE(b.calls.empty()) << "a neighbour's card was dropped";
    ASSERT_TRUE(m.get({"childjob", 2}, "btl_sm", 1, &card));
    EXPECT_EQ(*card, bytes("sm2"));
    EXPECT_THAT(b.calls, ElementsAre("get childjob:2 plexus.card.btl_sm"));
    EXPECT_EQ(m.get({"childjob", 2}, "dpm_ud", 1, &card).code, PLEXUS_ERR_NOT_FOUND) << "a remembered card survived";
}

TEST(Modex, EmptyCardsAreCardsAndBadArgumentsAreRejected) {
    FakeBackend b(launched_job(0, 1));
    Modex m(b);
    EXPECT_TRUE(m.put("btl_self", nullptr, 0));
    EXPECT_EQ(m.put("", "x", 1).code, PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(m.put("btl_sm", nullptr, 4).code, PLEXUS_ERR_BAD_PARAM);
}

}  // namespace
