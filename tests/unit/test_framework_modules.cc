// The 1.1 interfaces of osc, dpm and reconf, through the core with the good test components: the
// module each query() returns is the framework's struct at the framework's version, and behaves
// as the header says (osc: per window, destroyed by the caller; dpm and reconf: process-wide).
#include <gtest/gtest.h>

#include <cstddef>


#include <plexus/dpm.h>
#include <plexus/osc.h>
#include <plexus/reconf.h>

#include "good_plugin_core.h"

namespace plexus::mca {
namespace {

class FrameworkModules : public plexus::test::GoodPluginCore {
protected:
    // The module the winner of a selection offered.
    template <class Module>
    Module *winner_module(const Selection &s) {
        if (s.selected.empty()) return nullptr;
        return static_cast<Module *>(s.at(s.selected.front()).module);
    }
};

plexus_osc_scope_t window(int comm_size, int flavor, uint64_t size) {
    return {sizeof(plexus_osc_scope_t), size, 1, comm_size, comm_size, flavor, 0, nullptr, nullptr,
            nullptr, nullptr};
}

template <class Module>
void expect_version(const Module *m, uint16_t major, uint16_t minor) {
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->struct_size, sizeof(Module));
    EXPECT_EQ(m->major, major);
    EXPECT_EQ(m->minor, minor);
}

TEST_F(FrameworkModules, OscOffersAWindowModuleThatAllocates) {
    auto scope = window(1, PLEXUS_OSC_FLAVOR_ALLOCATE, 4096);
    Selection s = core->select("osc", &scope);
    auto *m = winner_module<plexus_osc_module_t>(s);
    expect_version(m, PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR);
    ASSERT_NE(m->win_init, nullptr);
    void *base = nullptr;
    ASSERT_EQ(m->win_init(m, &base), PLEXUS_OSC_SUCCESS);
    ASSERT_NE(base, nullptr);
    static_cast<char *>(base)[4095] = 1;  // the whole window is this process's memory
    EXPECT_EQ(m->put, nullptr) << "the test module moves no data, and says so by NULL";
    EXPECT_EQ(m->win_free(m), PLEXUS_OSC_SUCCESS);
    m->destroy(m);
}

TEST_F(FrameworkModules, OscModuleDeclinesAWindowItCannotServe) {
    auto scope = window(4, PLEXUS_OSC_FLAVOR_CREATE, 64);
    Selection s = core->select("osc", &scope);
    auto *m = winner_module<plexus_osc_module_t>(s);
    ASSERT_NE(m, nullptr);
    void *base = nullptr;
    EXPECT_EQ(m->win_init(m, &base), PLEXUS_OSC_DECLINE);
    EXPECT_EQ(base, nullptr);
    m->destroy(m);  // a declined module is destroyed without win_free
}

TEST_F(FrameworkModules, OscTakesAVersion10ScopeAndRefusesNone) {
    auto scope = window(1, PLEXUS_OSC_FLAVOR_CREATE, 64);
    scope.struct_size = offsetof(plexus_osc_scope_t, rank);  // what a 1.0 caller passes
    Selection s = core->select("osc", &scope);
    auto *m = winner_module<plexus_osc_module_t>(s);
    ASSERT_NE(m, nullptr);
    m->destroy(m);
    Selection none = core->select("osc", nullptr);
    EXPECT_TRUE(none.selected.empty());
}

TEST_F(FrameworkModules, DpmModuleMeetsNoParentInAJobThatWasNotSpawned) {
    Selection s = core->select("dpm", nullptr);
    auto *m = winner_module<plexus_dpm_module_t>(s);
    expect_version(m, PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR);
    plexus_dpm_services_t services{};
    services.struct_size = sizeof services;
    auto *parent = reinterpret_cast<plexus_coll_comm_t *>(&services);  // anything but NULL
    EXPECT_EQ(m->init(m, &services, nullptr, &parent), PLEXUS_DPM_SUCCESS);
    EXPECT_EQ(parent, nullptr);
    EXPECT_EQ(m->init(m, nullptr, nullptr, &parent), PLEXUS_DPM_ERR_ARG);
    EXPECT_EQ(m->finalize(m), PLEXUS_DPM_SUCCESS);
}

TEST_F(FrameworkModules, ReconfModuleAsksForPhasesAndIsTheSameEachTime) {
    Selection s = core->select("reconf", nullptr);
    auto *m = winner_module<plexus_reconf_module_t>(s);
    expect_version(m, PLEXUS_RECONF_MAJOR, PLEXUS_RECONF_MINOR);
    EXPECT_EQ(m->observe, PLEXUS_RECONF_EV_PHASE);
    plexus_reconf_services_t services{};
    services.struct_size = sizeof services;
    ASSERT_EQ(m->init(m, &services, nullptr), PLEXUS_SUCCESS);
    plexus_reconf_event_t ev{sizeof ev, PLEXUS_RECONF_EV_PHASE, 1, 0, 0, 0, nullptr, 0, 0.0};
    m->event(m, &ev);
    EXPECT_EQ(m->finalize(m), PLEXUS_SUCCESS);
    EXPECT_EQ(winner_module<plexus_reconf_module_t>(core->select("reconf", nullptr)), m)
        << "a process-wide module belongs to its component";
}

}  // namespace
}  // namespace plexus::mca
