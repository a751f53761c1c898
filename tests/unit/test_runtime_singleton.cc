// Unit tests of the runtime of a process started without a launcher: rank 0 of 1, its own job
// secret (different in every process), the shared-memory prefix, cards, the name service, and
// init/finalize counting.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <regex>
#include <string>

#include "base/output.h"
#include "runtime/job_info.h"
#include "runtime/runtime.h"

using namespace plexus::runtime;
using ::testing::HasSubstr;

namespace {

class SingletonRuntime : public ::testing::Test {
protected:
    void SetUp() override {
        // The test must be a singleton even when make check itself runs under a launcher.
        unsetenv("PMIX_NAMESPACE");
        ASSERT_EQ(Runtime::current(), nullptr);
    }
    void TearDown() override { ASSERT_EQ(Runtime::current(), nullptr) << "a test leaked an init"; }
};

std::string secret_hex() {
    JobSecret s;
    EXPECT_TRUE(Runtime::current()->secret(&s));
    return s.hex();
}

// The secret a fresh process gets, read through a pipe.
std::string secret_of_child() {
    int fds[2];
    if (pipe(fds) != 0) return "pipe failed";
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        RuntimeSession rt;
        JobSecret s;
        std::string hex = rt.status() && rt->secret(&s) ? s.hex() : "init failed";
        ssize_t ignored = write(fds[1], hex.data(), hex.size());
        (void)ignored;
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    std::string out;
    std::array<char, 128> buf;
    for (ssize_t n; (n = read(fds[0], buf.data(), buf.size())) > 0;) out.append(buf.data(), n);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return out;
}

TEST_F(SingletonRuntime, IsRankZeroOfOne) {
    RuntimeSession rt;
    ASSERT_TRUE(rt.status()) << rt.status().message;
    const JobInfo &j = rt->job();
    EXPECT_TRUE(j.singleton);
    EXPECT_EQ(j.rank, 0u);
    EXPECT_EQ(j.size, 1u);
    EXPECT_EQ(j.local_rank, 0u);
    EXPECT_EQ(j.local_size, 1u);
    EXPECT_EQ(j.local_peers, std::vector<uint32_t>{0});
    EXPECT_EQ(j.nspace, "singleton-" + std::to_string(getpid()));
    EXPECT_FALSE(j.universe_size.has_value());
    EXPECT_FALSE(j.parent.has_value());
    EXPECT_EQ(rt->connect_time().count(), 0);
}

// One rank per CPU is not oversubscribed; one more than the CPUs online is.
TEST(JobInfo, OversubscribedWhenTheNodeHasMoreRanksThanCpus) {
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ASSERT_GT(cpus, 0);
    JobInfo j = singleton_job_info();
    EXPECT_FALSE(j.oversubscribed());
    j.local_size = static_cast<uint32_t>(cpus);
    EXPECT_FALSE(j.oversubscribed());
    j.local_size = static_cast<uint32_t>(cpus) + 1;
    EXPECT_TRUE(j.oversubscribed());
}

TEST_F(SingletonRuntime, SecretIs64HexDigitsAndNamesThePrefix) {
    RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    const std::string hex = secret_hex();
    EXPECT_TRUE(std::regex_match(hex, std::regex("[0-9a-f]{64}"))) << hex;
    std::string prefix;
    ASSERT_TRUE(rt->shm_prefix(&prefix));
    EXPECT_EQ(prefix, "plexus-" + hex.substr(0, 16) + "-");
    EXPECT_TRUE(std::regex_match(prefix, std::regex("plexus-[0-9a-f]{16}-")));
}

TEST_F(SingletonRuntime, SecretDiffersBetweenProcesses) {
    const std::string a = secret_of_child(), b = secret_of_child();
    EXPECT_TRUE(std::regex_match(a, std::regex("[0-9a-f]{64}"))) << a;
    EXPECT_TRUE(std::regex_match(b, std::regex("[0-9a-f]{64}"))) << b;
    EXPECT_NE(a, b);
    RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    EXPECT_NE(secret_hex(), a);
}

TEST_F(SingletonRuntime, InitNestsAndTheLastFinalizeEndsIt) {
    ASSERT_TRUE(Runtime::init());
    Runtime *first = Runtime::current();
    const std::string secret = secret_hex();
    ASSERT_TRUE(Runtime::init());
    EXPECT_EQ(Runtime::current(), first);
    EXPECT_EQ(secret_hex(), secret);  // the second init is the same runtime, not a new job
    Runtime::finalize();
    EXPECT_EQ(Runtime::current(), first);
    Runtime::finalize();
    EXPECT_EQ(Runtime::current(), nullptr);
    Runtime::finalize();  // one too many is harmless
    EXPECT_EQ(Runtime::current(), nullptr);
}

TEST_F(SingletonRuntime, CardsRoundTripThroughTheInitFence) {
    RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    const std::string card = std::string("addr\0with nul", 13);
    ASSERT_TRUE(rt->modex().put("btl_test", card.data(), card.size()));
    ASSERT_TRUE(rt->fence_init());
    EXPECT_TRUE(rt->modex().fenced());
    const Modex::Card *got = nullptr;
    ASSERT_TRUE(rt->modex().get(rt->job().self(), "btl_test", 1, &got));
    EXPECT_EQ(std::string(got->begin(), got->end()), card);
    Status other = rt->modex().get({rt->job().nspace, 1}, "btl_test", 1, &got);
    EXPECT_EQ(other.code, PLEXUS_ERR_NOT_FOUND);
    EXPECT_THAT(other.message, HasSubstr(":1"));
    EXPECT_TRUE(rt->fence());  // later fences are plain barriers of one
    EXPECT_TRUE(rt->fence_init());
}

TEST_F(SingletonRuntime, PublishLookupUnpublish) {
    RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    std::string value;
    EXPECT_EQ(rt->lookup("port", false, 10, &value).code, PLEXUS_ERR_NOT_FOUND);
    ASSERT_TRUE(rt->publish("port", "tcp://x:1"));
    EXPECT_EQ(rt->publish("port", "again").code, PLEXUS_ERR_EXISTS);
    ASSERT_TRUE(rt->lookup("port", true, 10, &value));
    EXPECT_EQ(value, "tcp://x:1");
    ASSERT_TRUE(rt->unpublish("port"));
    EXPECT_EQ(rt->unpublish("port").code, PLEXUS_ERR_NOT_FOUND);
}

TEST_F(SingletonRuntime, SpawnSaysItNeedsALauncher) {
    RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    SpawnRequest r;
    r.command = "/bin/true";
    std::string ns;
    Status s = rt->spawn(r, &ns);
    EXPECT_EQ(s.code, PLEXUS_ERR_NOT_SUPPORTED);
    EXPECT_THAT(s.message, HasSubstr("plexrun"));
}

TEST_F(SingletonRuntime, AbortEndsTheProcessWithTheStatusAndMessage) {
    EXPECT_EXIT(
        {
            RuntimeSession rt;
            rt->abort(7, "the test said so");
        },
        ::testing::ExitedWithCode(7), "the test said so");
}

TEST_F(SingletonRuntime, VerboseStartupTraceSaysWhoItIs) {
    std::vector<std::string> lines;
    plexus::mca::set_output_sink([&](const std::string &l) { lines.push_back(l); });
    RuntimeSettings s;
    s.verbose = 1;
    {
        RuntimeSession rt(s);
        ASSERT_TRUE(rt.status());
    }
    plexus::mca::set_output_sink(nullptr);
    plexus::mca::reset_output_state();
    std::string all;
    for (const auto &l : lines) all += l + "\n";
    EXPECT_THAT(all, HasSubstr("runtime: singleton-"));
    EXPECT_THAT(all, HasSubstr("rank 0 of 1"));
    EXPECT_THAT(all, HasSubstr("job secret generated (singleton)"));
}

#ifdef PLEXUS_HAVE_PMIX
TEST_F(SingletonRuntime, ALaunchedProcessWhoseServerIsGoneFailsToStart) {
    // Claiming a launcher that does not exist must fail, not quietly run as a singleton.
    EXPECT_EXIT(
        {
            setenv("PMIX_NAMESPACE", "plexus-test-no-such-job", 1);
            setenv("PMIX_RANK", "0", 1);
            Status s = Runtime::init();
            std::fprintf(stderr, "%s\n", s.message.c_str());
            std::_Exit(s ? 0 : 3);
        },
        ::testing::ExitedWithCode(3), "PMIx_Init");
}
#endif

TEST(JobSecretText, HexRoundTripsAndRejectsAnythingElse) {
    JobSecret s;
    ASSERT_TRUE(JobSecret::generate(&s));
    auto back = JobSecret::from_hex(s.hex());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, s);
    std::string upper = s.hex();
    for (auto &c : upper) c = static_cast<char>(std::toupper(c));
    EXPECT_EQ(JobSecret::from_hex(upper), s);
    EXPECT_FALSE(JobSecret::from_hex(s.hex().substr(1)));
    EXPECT_FALSE(JobSecret::from_hex(s.hex() + "0"));
    EXPECT_FALSE(JobSecret::from_hex(std::string(63, '0') + "g"));
    EXPECT_EQ(JobSecret::from_hex(std::string(62, '0') + "ff")->bytes()[31], 0xff);
}

TEST(RankList, ParsesCommasAndRanges) {
    EXPECT_EQ(parse_rank_list("0"), (std::vector<uint32_t>{0}));
    EXPECT_EQ(parse_rank_list("0,1,4-6,9"), (std::vector<uint32_t>{0, 1, 4, 5, 6, 9}));
    EXPECT_EQ(parse_rank_list(""), (std::vector<uint32_t>{}));
    EXPECT_FALSE(parse_rank_list("1,,2"));
    EXPECT_FALSE(parse_rank_list("3-1"));
    EXPECT_FALSE(parse_rank_list("a"));
    EXPECT_FALSE(parse_rank_list("1 ,2"));
}

TEST(Timeouts, MillisecondsRoundUpToWholeSeconds) {
    EXPECT_EQ(timeout_seconds(0), 0);
    EXPECT_EQ(timeout_seconds(-5), 0);
    EXPECT_EQ(timeout_seconds(1), 1);
    EXPECT_EQ(timeout_seconds(1000), 1);
    EXPECT_EQ(timeout_seconds(1001), 2);
}

}  // namespace
