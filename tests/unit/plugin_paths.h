// Where the test components were built, for unit tests that load them. make check names the folder
// (PLEXUS_TEST_PLUGIN_DIR); run by hand from anywhere, a test finds it beside itself in the build
// tree (tests/unit/<test> or, behind libtool's wrapper, tests/unit/.libs/<test>).
#pragma once

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string>

namespace plexus::test {

// The build tree's tests/ folder, found from this executable's path.
inline std::string tests_dir_of_this_program() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "tests";
    std::string dir(buf, static_cast<size_t>(n));
    dir.erase(dir.rfind('/'));
    if (dir.size() >= 6 && dir.compare(dir.size() - 6, 6, "/.libs") == 0) dir.erase(dir.size() - 6);
    return dir + "/..";  // tests/unit -> tests
}

// Good test components (plexus_<fw>_good.so, ...).
inline std::string good_plugin_dir() {
    if (const char *v = std::getenv("PLEXUS_TEST_PLUGIN_DIR")) return v;
    return tests_dir_of_this_program() + "/plugins/.libs";
}
// Deliberately broken ones.
inline std::string broken_plugin_dir() { return good_plugin_dir() + "/../broken/.libs"; }

}  // namespace plexus::test
