// The process's parameter files and environment are read once: the runtime (which starts before
// the MCA core in MPI_Init) and the core see the same settings even when a file changes between
// the two, and a line that does not parse is reported from the one reading.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>


#include "base/output.h"
#include "base/process_settings.h"
#include "mca/mca_core.h"
#include "runtime/runtime_params.h"

namespace {

namespace fs = std::filesystem;

void write_user_file(const fs::path &home, const std::string &text) {
    fs::create_directories(home / ".plexus");
    std::ofstream(home / ".plexus" / "mca-params.conf") << text;
}

TEST(ProcessSettings, FilesAndEnvironmentAreReadOnceForRuntimeAndCore) {
    const fs::path home = fs::temp_directory_path() / ("plexus-settings-" + std::to_string(getpid()));
    write_user_file(home, "runtime_progress_spin_count = 7\nthis line is no setting\n");
    ASSERT_EQ(setenv("HOME", home.c_str(), 1), 0);
    ASSERT_EQ(setenv("PLEXUS_MCA_runtime_progress_max_sleep_us", "333", 1), 0);

    const plexus::mca::ProcessSettings &first = plexus::mca::process_settings();
    ASSERT_EQ(first.errors.size(), 1u);
    EXPECT_NE(first.errors[0].find("mca-params.conf:2"), std::string::npos) << first.errors[0];
    EXPECT_EQ(plexus::runtime::runtime_settings_from_process().progress.spin_count, 7u);

    // What MPI_Init does next: the core from the process's sources. The file changed meanwhile;
    // the core must see what the runtime saw, not read it again.
    write_user_file(home, "runtime_progress_spin_count = 9\n");
    ASSERT_EQ(setenv("PLEXUS_MCA_runtime_progress_max_sleep_us", "444", 1), 0);
    plexus::mca::set_output_sink([](const std::string &) {});
    auto options = plexus::mca::CoreOptions::from_process();
    options.search_default_folder = false;
    plexus::mca::McaCore core(std::move(options));
    core.init();
    plexus::mca::set_output_sink(nullptr);
    EXPECT_EQ(core.params().find("runtime_progress_spin_count")->value.i, 7);
    EXPECT_EQ(core.params().find("runtime_progress_max_sleep_us")->value.i, 333);
    EXPECT_EQ(&plexus::mca::process_settings(), &first);
    bool reported = false;
    for (const auto &e : core.errors()) reported |= e.find("mca-params.conf:2") != std::string::npos;
    EXPECT_TRUE(reported) << "the core reports the bad line it was given";
    fs::remove_all(home);
}

}  // namespace
