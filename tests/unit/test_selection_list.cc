// The include/exclude grammar of <framework>=... lists.
#include <gtest/gtest.h>

#include "mca/selection_list.h"

using plexus::mca::parse_selection_list;
using plexus::mca::SelectionList;

namespace {

SelectionList parse_ok(const char *text) {
    std::string err;
    auto list = parse_selection_list("btl", text, &err);
    EXPECT_TRUE(list.has_value()) << text << ": " << err;
    return list.value_or(SelectionList{});
}

std::string parse_error(const char *text) {
    std::string err;
    auto list = parse_selection_list("btl", text, &err);
    EXPECT_FALSE(list.has_value()) << text;
    return err;
}

}  // namespace

TEST(SelectionList, EmptyMeansAll) {
    for (const char *text : {"", "   "}) {
        SelectionList l = parse_ok(text);
        EXPECT_EQ(l.mode, SelectionList::Mode::All);
        EXPECT_TRUE(l.names.empty());
        EXPECT_TRUE(l.admits("anything"));
    }
}

TEST(SelectionList, IncludeKeepsOrderAndAdmitsOnlyNamed) {
    SelectionList l = parse_ok("sm, self ,tcp");
    EXPECT_EQ(l.mode, SelectionList::Mode::Include);
    EXPECT_EQ(l.names, (std::vector<std::string>{"sm", "self", "tcp"}));
    EXPECT_TRUE(l.admits("self"));
    EXPECT_FALSE(l.admits("openib"));
    EXPECT_EQ(l.to_string(), "sm,self,tcp");
}

TEST(SelectionList, LeadingCaretExcludesTheWholeList) {
    SelectionList l = parse_ok("^openib,tcp");
    EXPECT_EQ(l.mode, SelectionList::Mode::Exclude);
    EXPECT_EQ(l.names, (std::vector<std::string>{"openib", "tcp"}));
    EXPECT_FALSE(l.admits("tcp"));
    EXPECT_FALSE(l.admits("openib"));
    EXPECT_TRUE(l.admits("sm"));
    EXPECT_EQ(l.to_string(), "^openib,tcp");
}

TEST(SelectionList, DuplicatesCollapse) {
    EXPECT_EQ(parse_ok("sm,sm,self").names, (std::vector<std::string>{"sm", "self"}));
}

TEST(SelectionList, MixingIsAnErrorThatShowsTheForms) {
    for (const char *text : {"sm,^self", "^sm,^self", "^^sm"}) {
        std::string err = parse_error(text);
        EXPECT_NE(err.find("'^' may only stand once, at the start"), std::string::npos) << err;
        EXPECT_NE(err.find(std::string("btl=") + text), std::string::npos) << err;
        EXPECT_NE(err.find("btl=^a,b (all but these)"), std::string::npos) << err;
    }
}

TEST(SelectionList, EmptyElementsAndBadNamesAreErrors) {
    EXPECT_NE(parse_error("sm,,self").find("empty component name"), std::string::npos);
    EXPECT_NE(parse_error("^").find("empty component name"), std::string::npos);
    EXPECT_NE(parse_error("sm,").find("empty component name"), std::string::npos);
    EXPECT_NE(parse_error("Sm").find("'Sm' is not a component name"), std::string::npos);
    EXPECT_NE(parse_error("s-m").find("'s-m' is not a component name"), std::string::npos);
}
