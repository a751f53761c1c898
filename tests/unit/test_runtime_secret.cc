// Unit tests of how a launched job settles its secret (docs/runtime-contract.md): the server's
// when it has one; else rank 0 makes and puts one, one extra fence carries it, and the others
// read it from rank 0, all before init returns, so that components can name their segments.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fake_backend.h"
#include "runtime/runtime.h"

using namespace plexus::runtime;
using plexus::test::FakeBackend;
using plexus::test::launched_job;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

const std::string kServerHex = std::string(32, 'a') + std::string(32, '0');

class RuntimeSecret : public ::testing::Test {
protected:
    // Starts the runtime over a fake backend and keeps a view of it.
    Status start(std::unique_ptr<FakeBackend> b) {
        fake = b.get();
        return Runtime::init(RuntimeSettings{}, std::move(b));
    }
    void TearDown() override {
        while (Runtime::current()) Runtime::finalize();
    }
    std::string secret_hex() {
        JobSecret s;
        Status st = Runtime::current()->secret(&s);
        return st ? s.hex() : "unavailable: " + st.message;
    }
    FakeBackend *fake = nullptr;
};

TEST_F(RuntimeSecret, TheServersSecretWins) {
    auto b = std::make_unique<FakeBackend>(launched_job(3, 4));
    b->job_strings[Runtime::kSecretKey] = kServerHex;
    ASSERT_TRUE(start(std::move(b)));
    EXPECT_EQ(secret_hex(), kServerHex);
    std::string prefix;
    ASSERT_TRUE(Runtime::current()->shm_prefix(&prefix));
    EXPECT_EQ(prefix, "plexus-aaaaaaaaaaaaaaaa-");
    EXPECT_TRUE(fake->puts.empty());  // nothing of its own to publish
}

TEST_F(RuntimeSecret, AMalformedServerSecretIsAnError) {
    auto b = std::make_unique<FakeBackend>(launched_job(0, 2));
    b->job_strings[Runtime::kSecretKey] = "not hex";
    Status s = start(std::move(b));
    EXPECT_FALSE(s);
    EXPECT_THAT(s.message, HasSubstr("64 hex digits"));
    EXPECT_EQ(Runtime::current(), nullptr);
}

TEST_F(RuntimeSecret, RankZeroMakesOneAndSharesItWithOneFenceBeforeInitReturns) {
    ASSERT_TRUE(start(std::make_unique<FakeBackend>(launched_job(0, 4))));
    const std::string hex = secret_hex();
    ASSERT_EQ(hex.size(), 64u);
    ASSERT_TRUE(fake->puts.count(Runtime::kSecretKey));
    EXPECT_EQ(std::string(fake->puts[Runtime::kSecretKey].begin(), fake->puts[Runtime::kSecretKey].end()), hex);
    EXPECT_THAT(fake->calls, ElementsAre(std::string("put ") + Runtime::kSecretKey, "commit", "fence"));
    ASSERT_TRUE(Runtime::current()->fence_init());
    EXPECT_THAT(fake->calls, ElementsAre(std::string("put ") + Runtime::kSecretKey, "commit", "fence", "commit", "fence"));
}

// Components open between init and the init fence (issue 15: under srun btl_sm found no prefix).
TEST_F(RuntimeSecret, OtherRanksKnowRankZerosBeforeTheInitFence) {
    auto b = std::make_unique<FakeBackend>(launched_job(2, 4));
    const std::string rank0_hex = std::string(64, 'c');
    b->remote[{{"fakejob", 0}, Runtime::kSecretKey}] = {rank0_hex.begin(), rank0_hex.end()};
    ASSERT_TRUE(start(std::move(b)));
    EXPECT_EQ(secret_hex(), rank0_hex);
    std::string prefix;
    ASSERT_TRUE(Runtime::current()->shm_prefix(&prefix));
    EXPECT_EQ(prefix, "plexus-cccccccccccccccc-");
    EXPECT_THAT(fake->calls, ElementsAre("fence", std::string("get fakejob:0 ") + Runtime::kSecretKey));
    EXPECT_TRUE(fake->puts.empty());
    ASSERT_TRUE(Runtime::current()->fence_init());
    EXPECT_THAT(fake->calls, ElementsAre("fence", std::string("get fakejob:0 ") + Runtime::kSecretKey, "commit", "fence"));
}

TEST_F(RuntimeSecret, ASingleRankJobNeedsNoExtraFence) {
    ASSERT_TRUE(start(std::make_unique<FakeBackend>(launched_job(0, 1))));
    EXPECT_EQ(secret_hex().size(), 64u);
    EXPECT_TRUE(fake->calls.empty());
}

TEST_F(RuntimeSecret, ASecondFenceDoesNotCommitOrFetchAgain) {
    auto b = std::make_unique<FakeBackend>(launched_job(1, 2));
    const std::string rank0_hex = std::string(64, 'd');
    b->remote[{{"fakejob", 0}, Runtime::kSecretKey}] = {rank0_hex.begin(), rank0_hex.end()};
    ASSERT_TRUE(start(std::move(b)));
    ASSERT_TRUE(Runtime::current()->fence_init());
    fake->calls.clear();
    ASSERT_TRUE(Runtime::current()->fence_init());
    EXPECT_THAT(fake->calls, ElementsAre("fence"));
}

TEST_F(RuntimeSecret, AMissingRankZeroSecretFailsInit) {
    Status s = start(std::make_unique<FakeBackend>(launched_job(1, 2)));
    EXPECT_EQ(s.code, PLEXUS_ERR_NOT_FOUND);
    EXPECT_THAT(s.message, HasSubstr("job secret from rank 0"));
    EXPECT_EQ(Runtime::current(), nullptr);
}

}  // namespace
