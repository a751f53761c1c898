// Unit tests of MPI error classes and codes: every class has a name and a text, a code made for a
// message maps back to its class and gives the message, the table of messages is bounded (old
// codes keep their class and say their detail was dropped), and values that are neither a class
// nor an issued code are refused.
#include <gtest/gtest.h>

#include <string>

#include "mpi/error_codes.h"

using namespace plexus::mpi;

TEST(MpiErrorCodes, EveryClassHasANameAndAString) {
    ErrorCodeTable table;
    for (int c = MPI_SUCCESS; c <= kLastClass; ++c) {
        ASSERT_NE(class_name(c), nullptr) << c;
        ASSERT_NE(class_text(c), nullptr) << c;
        EXPECT_EQ(std::string(class_name(c)).rfind("MPI_", 0), 0u) << c;
        std::string s;
        ASSERT_TRUE(table.string_of(c, &s)) << c;
        EXPECT_EQ(s, std::string(class_name(c)) + ": " + class_text(c));
        EXPECT_EQ(table.class_of(c), c);
    }
    EXPECT_STREQ(class_name(MPI_ERR_RANK), "MPI_ERR_RANK");
    EXPECT_STREQ(class_name(MPI_ERR_IN_STATUS), "MPI_ERR_IN_STATUS");
    EXPECT_STREQ(class_name(MPI_ERR_WIN), "MPI_ERR_WIN");
    EXPECT_EQ(class_name(kLastClass + 1), nullptr);
    EXPECT_EQ(class_name(-1), nullptr);
}

TEST(MpiErrorCodes, ACodeMapsBackToItsClassAndMessage) {
    ErrorCodeTable table;
    const int code = table.make(MPI_ERR_RANK, "MPI_Send: invalid rank 7");
    EXPECT_GT(code, kLastClass);
    EXPECT_LE(code, MPI_ERR_LASTCODE);
    EXPECT_EQ(table.class_of(code), MPI_ERR_RANK);
    std::string s;
    ASSERT_TRUE(table.string_of(code, &s));
    EXPECT_EQ(s, "MPI_Send: invalid rank 7");
    const int other = table.make(MPI_ERR_TAG, "MPI_Recv: invalid tag -5");
    EXPECT_NE(other, code);
    EXPECT_EQ(table.class_of(other), MPI_ERR_TAG);
    ASSERT_TRUE(table.string_of(code, &s));
    EXPECT_EQ(s, "MPI_Send: invalid rank 7");
}

TEST(MpiErrorCodes, TheTableIsBoundedAndOldCodesKeepTheirClass) {
    ErrorCodeTable table;
    const int first = table.make(MPI_ERR_COUNT, "the first");
    for (int i = 0; i < ErrorCodeTable::kSlots - 1; ++i) table.make(MPI_ERR_TAG, "filler " + std::to_string(i));
    std::string s;
    ASSERT_TRUE(table.string_of(first, &s));
    EXPECT_EQ(s, "the first") << "the oldest of kSlots codes is still kept";
    table.make(MPI_ERR_TAG, "one more");
    ASSERT_TRUE(table.string_of(first, &s));
    EXPECT_NE(s.find("MPI_ERR_COUNT: invalid count argument"), std::string::npos) << s;
    EXPECT_NE(s.find("dropped"), std::string::npos) << s;
    EXPECT_EQ(table.class_of(first), MPI_ERR_COUNT);
}

TEST(MpiErrorCodes, LongMessagesAreCutToTheMaximumString) {
    ErrorCodeTable table;
    const int code = table.make(MPI_ERR_OTHER, std::string(3 * MPI_MAX_ERROR_STRING, 'x'));
    std::string s;
    ASSERT_TRUE(table.string_of(code, &s));
    EXPECT_EQ(s.size(), static_cast<size_t>(MPI_MAX_ERROR_STRING - 1));
}

TEST(MpiErrorCodes, ValuesThatAreNoCodeAreRefused) {
    ErrorCodeTable table;
    const int code = table.make(MPI_ERR_ARG, "made");
    std::string s;
    for (int bad : {-1, -32766, MPI_ERR_LASTCODE + 1, kLastClass + 1, (1 << kClassBits) - 1,
                    code + (1 << kClassBits),       // a sequence not issued yet
                    (code & ~((1 << kClassBits) - 1)) | MPI_SUCCESS,  // a code of class success
                    (code & ~((1 << kClassBits) - 1)) | (kLastClass + 1)}) {
        EXPECT_EQ(table.class_of(bad), -1) << bad;
        EXPECT_FALSE(table.string_of(bad, &s)) << bad;
    }
}

TEST(MpiErrorCodes, SequencesWrapAroundAndStayValid) {
    ErrorCodeTable table(300);
    int last = 0;
    for (int i = 0; i < 1000; ++i) last = table.make(MPI_ERR_BUFFER, "message " + std::to_string(i));
    EXPECT_EQ(table.class_of(last), MPI_ERR_BUFFER);
    std::string s;
    ASSERT_TRUE(table.string_of(last, &s));
    EXPECT_EQ(s, "message 999");
    // After the wrap every sequence has been issued: any code of a valid class is one.
    EXPECT_EQ(table.class_of((250 << kClassBits) | MPI_ERR_RANK), MPI_ERR_RANK);
    EXPECT_EQ(table.class_of((301 << kClassBits) | MPI_ERR_RANK), -1) << "beyond the sequence range";
}

TEST(MpiErrorCodes, TheProcessTableIsOne) { EXPECT_EQ(&error_codes(), &error_codes()); }
