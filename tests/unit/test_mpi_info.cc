// Unit tests of MPI_Info objects (framework/mpi/info): insertion order kept across replacing
// and deleting, the key and value limits, and the lookups C++ code reads hints with.
#include <gtest/gtest.h>

#include <string>

#include "mpi/info/info.h"

using namespace plexus::mpi;

TEST(MpiInfo, KeysKeepTheOrderTheyWereFirstSetIn) {
    Info info;
    info.set("b", "1");
    info.set("a", "2");
    info.set("c", "3");
    info.set("b", "4");  // replaced in place
    ASSERT_EQ(info.size(), 3u);
    EXPECT_EQ(info.key_at(0), "b");
    EXPECT_EQ(*info.find("b"), "4");
    EXPECT_TRUE(info.erase("a"));
    EXPECT_FALSE(info.erase("a"));
    EXPECT_EQ(info.key_at(1), "c");
    info.set("a", "5");
    EXPECT_EQ(info.key_at(2), "a");
    EXPECT_EQ(info.find("A"), nullptr) << "keys are case-sensitive";
    Info copy = info;
    copy.set("d", "6");
    EXPECT_EQ(info.size(), 3u) << "a copy is its own";
}

TEST(MpiInfo, LimitsOfKeysAndValues) {
    EXPECT_EQ(info_key_problem(std::string(MPI_MAX_INFO_KEY, 'k')), nullptr);
    EXPECT_NE(info_key_problem(std::string(MPI_MAX_INFO_KEY + 1, 'k')), nullptr);
    EXPECT_NE(info_key_problem(""), nullptr);
    EXPECT_EQ(info_value_problem(std::string(MPI_MAX_INFO_VAL, 'v')), nullptr);
    EXPECT_NE(info_value_problem(std::string(MPI_MAX_INFO_VAL + 1, 'v')), nullptr);
    EXPECT_NE(info_value_problem(""), nullptr);
}

TEST(MpiInfo, HintLookups) {
    EXPECT_FALSE(info_lookup(MPI_INFO_NULL, "x"));
    Info info;
    info.set("plexus_coll_preference", "tuned,basic");
    info.set("yes", "true");
    info.set("no", "0");
    info.set("odd", "maybe");
    EXPECT_EQ(info_lookup(&info, "plexus_coll_preference"), "tuned,basic");
    EXPECT_FALSE(info_lookup(&info, "missing"));
    EXPECT_EQ(info_lookup_bool(&info, "yes"), true);
    EXPECT_EQ(info_lookup_bool(&info, "no"), false);
    EXPECT_FALSE(info_lookup_bool(&info, "odd"));
    Info dead;
    dead.magic = 0;
    EXPECT_FALSE(info_lookup(&dead, "x")) << "an invalid object gives nothing";
}
