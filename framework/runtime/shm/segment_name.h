// The names of the job's shared-memory objects: "/" + the job's shm prefix (from its secret, so
// the launcher can remove what a crash leaves) + what it is for + 16 random hex digits, so that
// nobody can guess one in advance.
#pragma once

#include <cstdint>
#include <string>

namespace plexus::runtime {

// label: [a-z0-9_]{1,16}. false and *why when the label is not, or getrandom fails; *tag gets
// the random suffix's value.
bool make_segment_name(const std::string &prefix, const std::string &label, std::string *name, uint64_t *tag,
                       std::string *why);

bool valid_segment_label(const std::string &label);

}  // namespace plexus::runtime
