// Unit tests of the COLL framework's own logic, without processes: the per-function chains built
// from a selection (priorities, ties in rank order, the plexus_coll_preference hint, modules
// that are missing or too old, functions a module does not serve), the DECLINE fallback and the
// failure messages of dispatch (on a communicator object whose table is set by hand), the
// collective tag mapping, and the typed local copy of the services.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "mca/mca_core.h"
#include "base/output.h"
#include "mpi/coll/coll_chains.h"
#include "mpi/datatype/typed_copy.h"
#include "mpi/coll/coll_dispatch.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/coll/coll_state.h"
#include "mpi/coll/coll_tags.h"
#include "mpi/comm/internal_tags.h"
#include "mpi/datatype/construct.h"
#include "mpi/error_codes.h"
#include "plugin_paths.h"

using namespace plexus::mpi;
using namespace plexus::mpi::coll;

namespace {

// A module whose bcast and barrier answer what the test says, and which counts its calls.
struct FakeModule {
    plexus_coll_module_t base{};
    int answer = PLEXUS_COLL_SUCCESS;
    int calls = 0;
    int destroyed = 0;
};

FakeModule &fake(plexus_coll_module_t *m) { return *reinterpret_cast<FakeModule *>(m); }

int fake_bcast(plexus_coll_module_t *self, void *, int, plexus_coll_dtype_t *, int, plexus_coll_comm_t *) {
    ++fake(self).calls;
    return fake(self).answer;
}
int fake_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *) {
    ++fake(self).calls;
    return fake(self).answer;
}
void fake_destroy(plexus_coll_module_t *self) { ++fake(self).destroyed; }

// Serves bcast at bcast_priority and barrier at barrier_priority (-1: not served).
void init(FakeModule &m, int bcast_priority, int barrier_priority = -1) {
    m.base.struct_size = sizeof m.base;
    for (int &p : m.base.priority) p = -1;
    m.base.priority[PLEXUS_COLL_BCAST] = bcast_priority;
    m.base.priority[PLEXUS_COLL_BARRIER] = barrier_priority;
    m.base.fn.bcast = fake_bcast;
    m.base.fn.barrier = fake_barrier;
    m.base.destroy = fake_destroy;
}

std::vector<std::string> chain_names(const Chains &c, int fn) {
    std::vector<std::string> names;
    for (const Link &l : c.chain[static_cast<size_t>(fn)]) names.push_back(c.name(l));
    return names;
}

using Names = std::vector<std::string>;

}  // namespace

TEST(CollChains, OrderedByFunctionPriorityThenRank) {
    FakeModule a, b, c;
    init(a, 10, 50);  // rank order a, b, c (as the selection ranked the components)
    init(b, 30, 20);
    init(c, 30);
    const Chains ch = build_chains({{"a", &a.base}, {"b", &b.base}, {"c", &c.base}}, {});
    EXPECT_EQ(chain_names(ch, PLEXUS_COLL_BCAST), (Names{"b", "c", "a"})) << "b and c tie at 30: rank order";
    EXPECT_EQ(chain_names(ch, PLEXUS_COLL_BARRIER), (Names{"a", "b"})) << "c does not serve barrier";
    EXPECT_TRUE(ch.chain[PLEXUS_COLL_ALLTOALLW].empty());
    EXPECT_EQ(ch.chain[PLEXUS_COLL_BCAST][0].priority, 30);
    EXPECT_EQ(ch.modules.size(), 3u);
}

TEST(CollChains, PreferenceGoesFirstInItsOrder) {
    FakeModule a, b, c;
    init(a, 90, 90);
    init(b, 10, 10);
    init(c, 50);
    const Chains ch = build_chains({{"a", &a.base}, {"b", &b.base}, {"c", &c.base}}, parse_preference("c, b"));
    EXPECT_EQ(chain_names(ch, PLEXUS_COLL_BCAST), (Names{"c", "b", "a"}));
    EXPECT_EQ(chain_names(ch, PLEXUS_COLL_BARRIER), (Names{"b", "a"})) << "c does not serve barrier: skipped";
}

TEST(CollChains, PreferenceNamingAnAbsentComponentIsANote) {
    FakeModule a;
    init(a, 10);
    const Chains ch = build_chains({{"a", &a.base}}, parse_preference("sm,a"));
    EXPECT_EQ(chain_names(ch, PLEXUS_COLL_BCAST), (Names{"a"}));
    ASSERT_EQ(ch.notes.size(), 1u);
    EXPECT_NE(ch.notes[0].find("'sm'"), std::string::npos) << ch.notes[0];
}

TEST(CollChains, MissingAndOldModulesAreLeftOut) {
    FakeModule a, old;
    init(a, 10);
    init(old, 99);
    old.base.struct_size = 8;
    const Chains ch = build_chains({{"good", nullptr}, {"old", &old.base}, {"a", &a.base}}, {});
    EXPECT_EQ(chain_names(ch, PLEXUS_COLL_BCAST), (Names{"a"}));
    EXPECT_EQ(ch.components, (Names{"a"}));
    ASSERT_EQ(ch.notes.size(), 2u);
    EXPECT_NE(ch.notes[0].find("good: query returned no module"), std::string::npos) << ch.notes[0];
    EXPECT_NE(ch.notes[1].find("old: module struct_size 8"), std::string::npos) << ch.notes[1];
}

TEST(CollChains, APriorityWithoutAPointerDoesNotServe) {
    FakeModule a;
    init(a, 10);
    a.base.priority[PLEXUS_COLL_SCAN] = 40;  // claimed, but fn.scan is NULL
    EXPECT_FALSE(serves(a.base, PLEXUS_COLL_SCAN));
    EXPECT_TRUE(build_chains({{"a", &a.base}}, {}).chain[PLEXUS_COLL_SCAN].empty());
}

TEST(CollChains, PreferenceParsing) {
    EXPECT_EQ(parse_preference(" basic ,sm,, basic,mcast "), (Names{"basic", "sm", "mcast"}));
    EXPECT_TRUE(parse_preference("").empty());
    EXPECT_TRUE(parse_preference(" , ").empty());
}

TEST(CollChains, DescribeForVerboseOutput) {
    FakeModule a, b;
    init(a, 40);
    init(b, 10);
    const Chains ch = build_chains({{"sm", &a.base}, {"basic", &b.base}}, {});
    EXPECT_EQ(describe_chain(ch, PLEXUS_COLL_BCAST), "bcast: sm (priority 40); fallback: basic (10)");
    EXPECT_EQ(describe_chain(ch, PLEXUS_COLL_SCAN), "scan: no component serves it");
    EXPECT_STREQ(mpi_function_name(PLEXUS_COLL_REDUCE_SCATTER_BLOCK), "MPI_Reduce_scatter_block");
}

// ---- dispatch over a hand-made table

class CollDispatch : public ::testing::Test {
protected:
    void SetUp() override {
        comm_.name = "test comm";
        comm_.errhandler = MPI_ERRORS_RETURN;
        comm_.rank = 0;
        comm_.local_procs = comm_.remote_procs = {0, 1};
    }
    void TearDown() override { release(&comm_); }
    // Installs the chains of these modules (rank order) as comm_'s built table.
    void install(std::vector<Candidate> ranked) {
        CommState &st = state_of(&comm_);
        st.chains = build_chains(ranked, {});
        st.built = true;
    }
    int bcast() {
        int x = 0;
        return dispatch::bcast(nullptr, &x, 1, handle(MPI_INT), 0, handle(&comm_));
    }
    // Members: they outlive TearDown, which destroys the modules installed on comm_.
    FakeModule a, b;
    Comm comm_;
};

TEST_F(CollDispatch, FirstModuleServes) {
    init(a, 50);
    init(b, 10);
    install({{"a", &a.base}, {"b", &b.base}});
    EXPECT_EQ(bcast(), MPI_SUCCESS);
    EXPECT_EQ(a.calls, 1);
    EXPECT_EQ(b.calls, 0);
}

TEST_F(CollDispatch, DeclineFallsBackToTheNext) {
    init(a, 50);
    init(b, 10);
    a.answer = PLEXUS_COLL_DECLINE;
    install({{"a", &a.base}, {"b", &b.base}});
    EXPECT_EQ(bcast(), MPI_SUCCESS);
    EXPECT_EQ(a.calls, 1);
    EXPECT_EQ(b.calls, 1);
}

TEST_F(CollDispatch, EveryoneDeclines) {
    init(a, 50);
    init(b, 10);
    a.answer = b.answer = PLEXUS_COLL_DECLINE;
    install({{"a", &a.base}, {"b", &b.base}});
    const int rc = bcast();
    EXPECT_EQ(rc, MPI_ERR_UNSUPPORTED_OPERATION);
    const int code = report_failure(&comm_, rc);
    EXPECT_EQ(error_class_of(code), MPI_ERR_UNSUPPORTED_OPERATION);
    std::string msg;
    ASSERT_TRUE(error_string_of(code, &msg));
    EXPECT_NE(msg.find("MPI_Bcast"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test comm"), std::string::npos) << msg;
    EXPECT_NE(msg.find("tried: a, b"), std::string::npos) << msg;
}

TEST_F(CollDispatch, NobodyServesTheFunction) {
    init(a, 50);
    install({{"a", &a.base}});
    int x = 0;
    const int rc = dispatch::scan(nullptr, &x, &x, 1, handle(MPI_INT), nullptr, handle(&comm_));
    EXPECT_EQ(rc, MPI_ERR_UNSUPPORTED_OPERATION);
    std::string msg;
    ASSERT_TRUE(error_string_of(report_failure(&comm_, rc), &msg));
    EXPECT_NE(msg.find("MPI_Scan"), std::string::npos) << msg;
    EXPECT_NE(msg.find("none of the selected components (a) offers scan"), std::string::npos) << msg;
}

TEST_F(CollDispatch, AModuleErrorEndsTheCall) {
    init(a, 50);
    init(b, 10);
    a.answer = PLEXUS_COLL_ERR_TRUNCATE;
    install({{"a", &a.base}, {"b", &b.base}});
    const int rc = bcast();
    EXPECT_EQ(rc, MPI_ERR_TRUNCATE);
    EXPECT_EQ(b.calls, 0) << "an error is not a decline";
    std::string msg;
    ASSERT_TRUE(error_string_of(report_failure(&comm_, rc), &msg));
    EXPECT_NE(msg.find("coll component a failed"), std::string::npos) << msg;
}

TEST_F(CollDispatch, ReleaseDestroysEveryModuleOnce) {
    init(a, 50);
    init(b, -1);  // serves nothing here, but was made for this communicator
    install({{"a", &a.base}, {"b", &b.base}});
    release(&comm_);
    EXPECT_EQ(a.destroyed, 1);
    EXPECT_EQ(b.destroyed, 1);
    EXPECT_EQ(comm_.coll, nullptr);
    release(&comm_);  // nothing left: no second destroy
    EXPECT_EQ(a.destroyed, 1);
}

TEST_F(CollDispatch, ChangedPreferenceDropsTheModules) {
    init(a, 50);
    install({{"a", &a.base}});
    Info info;
    info.set("unrelated", "1");
    set_hints(&comm_, info);
    EXPECT_EQ(a.destroyed, 0) << "other hints keep the table";
    info.set(kPreferenceKey, "a");
    set_hints(&comm_, info);
    EXPECT_EQ(a.destroyed, 1);
    EXPECT_FALSE(comm_.coll->built) << "selected again at the next call";
    ASSERT_NE(comm_.coll->hints.find("unrelated"), nullptr);
    EXPECT_EQ(*comm_.coll->hints.find(kPreferenceKey), "a");
}

// ---- selection through a real MCA core that sees only the test components: coll_good answers
// query with priority 20 and no module.

class CollSelection : public ::testing::Test {
protected:
    void SetUp() override {
        plexus::mca::reset_output_state();
        plexus::mca::set_output_sink([this](const std::string &line) { lines_.push_back(line); });
        comm_.errhandler = MPI_ERRORS_RETURN;
        comm_.rank = 0;
        comm_.local_procs = comm_.remote_procs = {0};
        comm_.name = "selected";
    }
    void TearDown() override {
        release(&comm_);
        plexus::mca::set_output_sink(nullptr);
    }
    std::unique_ptr<plexus::mca::McaCore> core(std::vector<std::pair<std::string, std::string>> env) {
        plexus::mca::CoreOptions o;
        o.search_default_folder = false;
        o.sources.environment = std::move(env);
        o.sources.environment.emplace_back("PLEXUS_MCA_mca_base_component_path", plexus::test::good_plugin_dir());
        auto c = std::make_unique<plexus::mca::McaCore>(std::move(o));
        EXPECT_TRUE(c->init());
        return c;
    }
    bool said(const std::string &text) const {
        for (const auto &l : lines_)
            if (l.find(text) != std::string::npos) return true;
        return false;
    }
    std::string bcast_failure() {
        int x = 0;
        const int rc = dispatch::bcast(nullptr, &x, 1, handle(MPI_INT), 0, handle(&comm_));
        EXPECT_EQ(rc, MPI_ERR_UNSUPPORTED_OPERATION);
        std::string msg;
        EXPECT_TRUE(error_string_of(report_failure(&comm_, rc), &msg));
        return msg;
    }
    Comm comm_;
    std::vector<std::string> lines_;
};

TEST_F(CollSelection, AComponentWithoutAModuleIsIgnoredWithANote) {
    auto c = core({{"PLEXUS_MCA_coll_base_verbose", "1"}});
    const Chains &ch = chains_of(&comm_);
    EXPECT_TRUE(ch.components.empty());
    ASSERT_FALSE(ch.notes.empty());
    EXPECT_NE(ch.notes[0].find("good: query returned no module"), std::string::npos) << ch.notes[0];
    EXPECT_TRUE(said("selected (context 0, 1 rank): good: query returned no module, ignored"));
    EXPECT_TRUE(said("selected (context 0, 1 rank): bcast: no component serves it"));
    const std::string msg = bcast_failure();
    EXPECT_NE(msg.find("good: query returned no module"), std::string::npos) << msg;
}

TEST_F(CollSelection, TheExcludeListIsTheCores) {
    auto c = core({{"PLEXUS_MCA_coll", "^good"}});
    const Chains &ch = chains_of(&comm_);
    EXPECT_TRUE(ch.components.empty());
    EXPECT_TRUE(ch.notes.empty()) << "good was never queried";
    EXPECT_NE(bcast_failure().find("no coll component was selected"), std::string::npos);
}

TEST_F(CollSelection, NothingIsSelectedBeforeTheFirstCall) {
    auto c = core({{"PLEXUS_MCA_coll_base_verbose", "1"}});
    Info info;
    info.set(kPreferenceKey, "good");
    set_hints(&comm_, info);
    EXPECT_FALSE(comm_.coll->built);
    EXPECT_FALSE(said("good: selected")) << "hints alone select nothing";
    chains_of(&comm_);
    EXPECT_TRUE(said("good: selected"));
    EXPECT_TRUE(said("plexus_coll_preference names 'good', which offers no module here"));
}

// ---- tags

TEST(CollTags, MapBelowCommunicatorManagement) {
    EXPECT_EQ(wire_tag(0), tags::kCollFirst);
    EXPECT_EQ(wire_tag(0), -17);
    EXPECT_EQ(wire_tag(PLEXUS_COLL_TAG_MAX), -1040);
    EXPECT_EQ(tags::kCollLast, -1040);
    EXPECT_LT(wire_tag(0), tags::kCommLast) << "below the communicator-management tags";
    EXPECT_GT(tags::kFirstFreeBelowColl, tags::kCollLast - 2);
    for (int t = 0; t <= PLEXUS_COLL_TAG_MAX; ++t) ASSERT_EQ(component_tag(wire_tag(t)), t);
    EXPECT_EQ(component_tag(-16), -1);
    EXPECT_EQ(component_tag(-1041), -1);
    EXPECT_EQ(component_tag(5), -1);
    EXPECT_FALSE(tag_valid(-1));
    EXPECT_FALSE(tag_valid(PLEXUS_COLL_TAG_MAX + 1));
}

// ---- typed copies

TEST(CollCopy, ContiguousAndTruncation) {
    int src[4] = {1, 2, 3, 4}, dst[4] = {0, 0, 0, 0};
    EXPECT_EQ(typed_copy(src, 4, *MPI_INT, dst, 4, *MPI_INT), MPI_SUCCESS);
    EXPECT_EQ(std::memcmp(src, dst, sizeof src), 0);
    int small[4] = {9, 9, 9, 9};
    EXPECT_EQ(typed_copy(src, 4, *MPI_INT, small, 2, *MPI_INT), MPI_ERR_TRUNCATE);
    EXPECT_EQ(small[0], 1);
    EXPECT_EQ(small[1], 2);
    EXPECT_EQ(small[2], 9) << "nothing written past the receive side";
    EXPECT_EQ(typed_copy(src, 2, *MPI_INT, dst, 4, *MPI_INT), MPI_SUCCESS) << "a longer receive side is fine";
}

TEST(CollCopy, DerivedLayoutsBothWays) {
    Datatype *vec = make_vector(3, 1, 2, MPI_INT);  // ints 0, 2, 4 of each item
    commit(vec);
    const int packed[6] = {1, 2, 3, 4, 5, 6};
    std::vector<int> spread(12, -1);
    // Contiguous to derived: 2 items of the vector (extent 5 ints).
    ASSERT_EQ(typed_copy(packed, 6, *MPI_INT, spread.data(), 2, *vec), MPI_SUCCESS);
    EXPECT_EQ(spread, (std::vector<int>{1, -1, 2, -1, 3, 4, -1, 5, -1, 6, -1, -1}));
    // Derived to contiguous, and derived to derived (staged).
    int back[6] = {};
    ASSERT_EQ(typed_copy(spread.data(), 2, *vec, back, 6, *MPI_INT), MPI_SUCCESS);
    EXPECT_EQ(std::memcmp(back, packed, sizeof back), 0);
    std::vector<int> again(12, -7);
    ASSERT_EQ(typed_copy(spread.data(), 2, *vec, again.data(), 2, *vec), MPI_SUCCESS);
    for (int i : {0, 2, 4, 5, 7, 9}) EXPECT_EQ(again[static_cast<size_t>(i)], spread[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(again[1], -7) << "holes untouched";
    EXPECT_EQ(typed_copy(spread.data(), 2, *vec, again.data(), 1, *vec), MPI_ERR_TRUNCATE);
    free_handle(vec);
}
