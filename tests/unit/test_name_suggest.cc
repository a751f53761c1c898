// Unit tests of "did you mean": the optimal-string-alignment distance and the choice of the
// closest name, including when nothing is close enough to suggest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/name_suggest.h"

namespace plexus::mca {
namespace {

TEST(EditDistance, BasicOperations) {
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("abc", "abc"), 0u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("abc", "abd"), 1u);   // substitution
    EXPECT_EQ(edit_distance("abc", "abcd"), 1u);  // insertion
    EXPECT_EQ(edit_distance("abcd", "acd"), 1u);  // deletion
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(EditDistance, AdjacentTranspositionCostsOne) {
    EXPECT_EQ(edit_distance("ab", "ba"), 1u);
    EXPECT_EQ(edit_distance("btl_sm_fastbox_max", "btl_sm_fastbxo_max"), 1u);
    EXPECT_EQ(edit_distance("abcdef", "badcfe"), 3u);
}

TEST(EditDistance, IsOptimalStringAlignmentNotFullDamerau) {
    // Unrestricted Damerau gives 2 (transpose, then insert between); OSA may not edit a
    // transposed pair again and gives 3.
    EXPECT_EQ(edit_distance("ca", "abc"), 3u);
}

TEST(EditDistance, IsSymmetricAndCaseSensitive) {
    EXPECT_EQ(edit_distance("btl_tcp", "btl_sm"), edit_distance("btl_sm", "btl_tcp"));
    EXPECT_EQ(edit_distance("ABC", "abc"), 3u);
}

TEST(ClosestName, FindsTypos) {
    const std::vector<std::string> names = {"btl_sm_fastbox_max", "btl_sm_eager_limit",
                                            "btl_tcp_if_include", "mca_base_loader"};
    EXPECT_EQ(closest_name("btl_sm_fastbox_mx", names), "btl_sm_fastbox_max");
    EXPECT_EQ(closest_name("btl_sm_fastbxo_max", names), "btl_sm_fastbox_max");
    EXPECT_EQ(closest_name("btl_tcp_if_inclde", names), "btl_tcp_if_include");
    EXPECT_EQ(closest_name("mca_base_loadr", names), "mca_base_loader");
}

TEST(ClosestName, IgnoresCase) {
    EXPECT_EQ(closest_name("BTL_SM_FASTBOX_MAX", {"btl_sm_fastbox_max", "btl_sm_fastbox_min"}),
              "btl_sm_fastbox_max");
    EXPECT_EQ(closest_name("Btl_Sm_Fastbox_Mx", {"btl_sm_fastbox_max"}), "btl_sm_fastbox_max");
}

TEST(ClosestName, NothingWhenFar) {
    const std::vector<std::string> names = {"btl_sm_fastbox_max", "mca_base_loader"};
    EXPECT_EQ(closest_name("coll_tuned_segsize", names), "");
    EXPECT_EQ(closest_name("xyz", names), "");
    EXPECT_EQ(closest_name("anything", {}), "");
}

TEST(ClosestName, ThresholdIsAThirdOfTheLengthBetweenOneAndFour) {
    // 6 characters: up to 2 edits.
    EXPECT_EQ(closest_name("abcdef", {"abcdXY"}), "abcdXY");
    EXPECT_EQ(closest_name("abcdef", {"abcXYZ"}), "");
    // 2 characters: still 1 edit allowed (the floor).
    EXPECT_EQ(closest_name("sm", {"sx"}), "sx");
    EXPECT_EQ(closest_name("sm", {"xy"}), "");
    // 30 characters: capped at 4 edits.
    const std::string name(30, 'a');
    EXPECT_EQ(closest_name(name, {std::string(26, 'a')}), std::string(26, 'a'));
    EXPECT_EQ(closest_name(name, {std::string(25, 'a')}), "");
}

TEST(ClosestName, PrefersSmallerDistanceThenAlphabetical) {
    EXPECT_EQ(closest_name("btl_sm_eager", {"btl_sm_eagre_x", "btl_sm_eagerr"}), "btl_sm_eagerr");
    EXPECT_EQ(closest_name("btl_tcp", {"btl_tcx", "btl_tca", "btl_tcb"}), "btl_tca");
    EXPECT_EQ(closest_name("btl_tcp", {"btl_tcx", "btl_tcp"}), "btl_tcp");
}

TEST(ClosestName, LongNamesAreCheap) {
    // A huge name against normal candidates is ruled out by length alone.
    const std::string huge(1 << 20, 'a');
    EXPECT_EQ(closest_name(huge, {"btl_sm_fastbox_max", "a"}), "");
}

}  // namespace
}  // namespace plexus::mca
