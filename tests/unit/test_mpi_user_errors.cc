// Unit tests of the error classes and codes a program adds (UserErrors in mpi/error_codes.h):
// classes after MPI_ERR_WIN and below 128 until they run out, codes above MPI_ERR_LASTCODE that
// carry their class, strings for user classes and codes only, MPI_LASTUSEDCODE, and the lookups
// over both the predefined and the user's classes and codes.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "mpi/error_codes.h"

using namespace plexus::mpi;

TEST(MpiUserErrors, ClassesFollowTheLastPredefinedOneUntil127) {
    UserErrors u;
    std::set<int> seen;
    for (int i = 0; i < UserErrors::kMaxClasses; ++i) {
        const int c = u.add_class();
        EXPECT_EQ(c, MPI_ERR_WIN + 1 + i);
        EXPECT_TRUE(u.is_class(c));
        seen.insert(c);
    }
    EXPECT_EQ(*seen.rbegin(), 127);
    EXPECT_EQ(u.add_class(), -1) << "no class left";
    EXPECT_FALSE(u.is_class(128));
    EXPECT_FALSE(u.is_class(MPI_ERR_RANK)) << "predefined classes are not the user's";
}

TEST(MpiUserErrors, CodesCarryTheirClassAndStrings) {
    UserErrors u(4);
    const int c = u.add_class();
    EXPECT_EQ(u.last_used(), MPI_ERR_LASTCODE) << "user classes are below the library's codes";
    const int a = u.add_code(c);
    const int b = u.add_code(MPI_ERR_ARG);
    EXPECT_GT(a, MPI_ERR_LASTCODE);
    EXPECT_GT(b, a);
    EXPECT_EQ(u.class_of(a), c);
    EXPECT_EQ(u.class_of(b), MPI_ERR_ARG);
    EXPECT_EQ(u.class_of(a + 1), -1) << "the right index with another class";
    EXPECT_EQ(u.class_of(b + 128), -1) << "an index not issued";
    EXPECT_EQ(u.last_used(), b);
    EXPECT_EQ(u.add_code(MPI_SUCCESS), -1);
    EXPECT_EQ(u.add_code(c + 1), -1) << "a class nobody added";
    const int x = u.add_code(c);
    const int y = u.add_code(c);
    EXPECT_EQ(y, x + 128) << "consecutive";
    EXPECT_EQ(u.add_code(c), -2) << "out of codes";

    std::string s = "unset";
    ASSERT_TRUE(u.string_of(c, &s));
    EXPECT_EQ(s, "") << "no string given yet";
    EXPECT_TRUE(u.set_string(c, "class text"));
    EXPECT_TRUE(u.set_string(a, "code text"));
    EXPECT_FALSE(u.set_string(MPI_ERR_ARG, "x")) << "predefined";
    ASSERT_TRUE(u.string_of(c, &s));
    EXPECT_EQ(s, "class text");
    ASSERT_TRUE(u.string_of(a, &s));
    EXPECT_EQ(s, "code text");
    EXPECT_FALSE(u.string_of(MPI_ERR_ARG, &s));
}

TEST(MpiUserErrors, TheProcessWideLookupsCoverBoth) {
    const int c = user_errors().add_class();
    const int code = user_errors().add_code(c);
    EXPECT_TRUE(is_any_class(c));
    EXPECT_TRUE(is_any_class(MPI_ERR_RANK));
    EXPECT_FALSE(is_any_class(c + 1));
    EXPECT_EQ(error_class_of(c), c);
    EXPECT_EQ(error_class_of(code), c);
    EXPECT_EQ(error_class_of(MPI_ERR_TAG), MPI_ERR_TAG);
    const int made = error_codes().make(MPI_ERR_TAG, "MPI_Send: invalid tag -1");
    EXPECT_EQ(error_class_of(made), MPI_ERR_TAG);
    EXPECT_EQ(error_class_of(code + 128), -1);
    std::string s;
    ASSERT_TRUE(error_string_of(made, &s));
    EXPECT_EQ(s, "MPI_Send: invalid tag -1");
    ASSERT_TRUE(error_string_of(MPI_ERR_TAG, &s));
    EXPECT_EQ(s, "MPI_ERR_TAG: invalid tag");
    user_errors().set_string(code, "mine");
    ASSERT_TRUE(error_string_of(code, &s));
    EXPECT_EQ(s, "mine");
}
