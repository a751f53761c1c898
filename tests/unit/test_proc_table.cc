// The process table: world ids fixed, newcomers appended, and the ids of processes that left
// given to later newcomers only when the caller's check allows (issue 19: a program that spawns
// and disconnects for ever keeps tables of the size of what it holds at once).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "mpi/proc_table.h"

namespace plexus::mpi {
namespace {

ProcTable world_of(uint32_t size) {
    ProcTable t;
    runtime::JobInfo job;
    job.nspace = "parent";
    job.size = size;
    t.init_world(job);
    return t;
}

runtime::ProcId child(int job, uint32_t rank) { return {"child-" + std::to_string(job), rank}; }

const ProcTable::ReuseCheck kAny = [](uint32_t) { return true; };

TEST(ProcTable, NewcomersAreAppendedAfterTheWorldAndKnownProcessesKeepTheirIds) {
    ProcTable t = world_of(2);
    EXPECT_EQ(t.add({"parent", 1}, kAny), 1u);
    EXPECT_EQ(t.add(child(1, 0), kAny), 2u);
    EXPECT_EQ(t.add(child(1, 1), kAny), 3u);
    EXPECT_EQ(t.add(child(1, 0), kAny), 2u);
    EXPECT_EQ(t.size(), 4u);
}

TEST(ProcTable, TheWorldsIdsAreNeverGivenAway) {
    ProcTable t = world_of(2);
    t.depart({0, 1});
    EXPECT_EQ(t.departed(), 0u);
    EXPECT_EQ(t.add(child(1, 0), kAny), 2u);
    EXPECT_EQ(t.at(1), (runtime::ProcId{"parent", 1}));
}

TEST(ProcTable, AProcessThatComesBackKeepsItsIdWhateverTheCheckSays) {
    ProcTable t = world_of(1);
    const uint32_t id = t.add(child(1, 0), kAny);
    t.depart({id});
    bool reused = true;
    EXPECT_EQ(t.add(child(1, 0), [](uint32_t) { return false; }, &reused), id);
    EXPECT_FALSE(reused);
    EXPECT_EQ(t.departed(), 0u) << "it is here again: its id is no longer free";
    EXPECT_EQ(t.add(child(2, 0), kAny), id + 1) << "a newcomer must not take the id of a process that is back";
}

TEST(ProcTable, ANewcomerTakesTheOldestDepartedIdTheCheckAllows) {
    ProcTable t = world_of(1);
    const uint32_t a = t.add(child(1, 0), kAny), b = t.add(child(1, 1), kAny), c = t.add(child(1, 2), kAny);
    t.depart({b, a, c});
    std::vector<uint32_t> asked;
    bool reused = false;
    const uint32_t got = t.add(child(2, 0), [&](uint32_t id) {
        asked.push_back(id);
        return id != b;  // a BTL still holds b
    }, &reused);
    EXPECT_EQ(got, a);
    EXPECT_TRUE(reused);
    EXPECT_EQ(asked, (std::vector<uint32_t>{b, a}));
    EXPECT_EQ(t.at(a), child(2, 0));
    EXPECT_EQ(t.add(child(1, 0), kAny), b) << "the process a left is a newcomer now: it takes b";
    EXPECT_EQ(t.size(), 4u);
}

TEST(ProcTable, WithoutACheckOrWhenItRefusesEveryIdIsNew) {
    ProcTable t = world_of(1);
    const uint32_t a = t.add(child(1, 0));
    t.depart({a});
    EXPECT_EQ(t.add(child(2, 0)), a + 1);
    EXPECT_EQ(t.add(child(3, 0), [](uint32_t) { return false; }), a + 2);
    EXPECT_EQ(t.departed(), 1u);
}

TEST(ProcTable, AThousandSpawnsAndDisconnectsOfFourChildrenKeepTheTableAtItsLargestMoment) {
    ProcTable t = world_of(2);
    for (int job = 0; job < 1000; ++job) {
        std::vector<uint32_t> ids;
        for (uint32_t r = 0; r < 4; ++r) ids.push_back(t.add(child(job, r), kAny));
        EXPECT_EQ(std::set<uint32_t>(ids.begin(), ids.end()).size(), 4u) << "job " << job;
        for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(t.at(ids[r]), child(job, r));
        t.depart(ids);
    }
    EXPECT_EQ(t.size(), 6u);
    t.depart({5, 5});
    EXPECT_EQ(t.departed(), 4u) << "an id departs once";
}

}  // namespace
}  // namespace plexus::mpi
