// Business cards that a dpm component carries between jobs itself (dpm_ud's datagrams) instead
// of letting the BTLs fetch them from the other job's server: this process's cards packed into
// one blob, and another process's blob unpacked into the runtime's card cache, where add_procs
// finds it (services own_cards / provide_cards, dpm.h 1.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <plexus/dpm.h>

namespace plexus::mpi::dpm {

using CardList = std::vector<std::pair<std::string, std::vector<uint8_t>>>;

// The blob: count (u32), then per card key length (u16), key, card length (u32), card; all
// little-endian. Keys are the runtime's "plexus.card.<component>".
std::vector<uint8_t> pack_cards(const CardList &cards);
// false and *why for anything else than such a blob (a key of another form included).
bool unpack_cards(const void *blob, size_t len, CardList *out, std::string *why);

// services->own_cards and services->provide_cards (MPI error classes).
int own_cards(void **blob, size_t *len);
int provide_cards(const plexus_dpm_proc_t *proc, const void *blob, size_t len);

}  // namespace plexus::mpi::dpm
