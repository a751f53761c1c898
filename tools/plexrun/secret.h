// Each namespace's secret (plexus.job.secret) and the shared-memory names derived from it.
#pragma once

#include <string>

namespace plexrun {

// 64 lowercase hex digits from 32 bytes of getrandom(2); throws if the kernel has none.
std::string make_job_secret();
// "plexus-<first 16 hex digits>-": every /dev/shm object of the namespace starts with it.
std::string shm_prefix_of(const std::string &secret);
// Unlinks /dev/shm/<prefix>*; returns how many objects were removed.
int remove_shm_objects(const std::string &prefix);

}  // namespace plexrun
