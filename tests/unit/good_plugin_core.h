// A fixture for tests that need an initialized MCA core over the good test components only
// (tests/plugins), with the core's output silenced.
#pragma once

#include <memory>

#include <gtest/gtest.h>

#include "base/output.h"
#include "mca/mca_core.h"
#include "plugin_paths.h"

namespace plexus::test {

class GoodPluginCore : public ::testing::Test {
protected:
    void SetUp() override {
        mca::reset_output_state();
        mca::set_output_sink([](const std::string &) {});
        mca::CoreOptions o;
        o.search_default_folder = false;
        o.load_all_components = load_all_components;
        o.sources.environment.emplace_back("PLEXUS_MCA_mca_base_component_path", good_plugin_dir());
        core = std::make_unique<mca::McaCore>(std::move(o));
        ASSERT_TRUE(core->init());
    }
    void TearDown() override { mca::set_output_sink(nullptr); }

    std::unique_ptr<mca::McaCore> core;
    bool load_all_components = false;  // as plexus_info does: set before SetUp
};

}  // namespace plexus::test
