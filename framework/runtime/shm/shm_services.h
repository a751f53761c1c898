// The shm service table of host API 1.3 (plexus/shm.h): the C face of shm_segment.h and
// single_copy.h, checking every argument a component from another build may pass.
#pragma once

#include <string>

#include <plexus/shm.h>

namespace plexus::runtime {

// The table host->shm points to (constant-initialized, so the host table can take its address).
extern const plexus_shm_services_t kShmServices;

// Unit tests of components run without a runtime: the prefix segments are named with until the
// next call (empty: the running runtime's again).
void set_shm_prefix_for_tests(const std::string &prefix);

}  // namespace plexus::runtime
