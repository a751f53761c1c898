// Where the test components were built, for unit tests that load them (set by make check).
#pragma once

#include <cstdlib>
#include <string>

namespace plexus::test {

inline std::string env_or(const char *name, const char *fallback) {
    const char *v = std::getenv(name);
    return v ? v : fallback;
}
// Good test components (plexus_<fw>_good.so, ...).
inline std::string good_plugin_dir() {
    return env_or("PLEXUS_TEST_PLUGIN_DIR", "tests/plugins/.libs");
}
// Deliberately broken ones.
inline std::string broken_plugin_dir() { return good_plugin_dir() + "/../broken/.libs"; }

}  // namespace plexus::test
