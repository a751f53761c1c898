// The group constructors and queries of MPI as pure functions on proc-id lists, so that unit
// tests check them without processes. Each checks its arguments first and says what is wrong
// (which argument, which value, what is valid) in an error that the MPI layer reports with
// the function's name in front.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mpi.h"

namespace plexus::mpi {

using ProcList = std::vector<uint32_t>;

// MPI_SUCCESS with procs set, or an error class with a message.
struct GroupOpResult {
    int error_class = MPI_SUCCESS;
    std::string message;
    ProcList procs;
    explicit operator bool() const { return error_class == MPI_SUCCESS; }
};

GroupOpResult group_incl(const ProcList &g, int n, const int ranks[]);
GroupOpResult group_excl(const ProcList &g, int n, const int ranks[]);
GroupOpResult group_range_incl(const ProcList &g, int n, const int ranges[][3]);
GroupOpResult group_range_excl(const ProcList &g, int n, const int ranges[][3]);
// Set operations in MPI's order: the members of a first, then (union) those of b not in a.
ProcList group_union(const ProcList &a, const ProcList &b);
ProcList group_intersection(const ProcList &a, const ProcList &b);
ProcList group_difference(const ProcList &a, const ProcList &b);

// MPI_Group_translate_ranks: out[i] is the rank in b of a's rank ranks[i] (MPI_UNDEFINED when
// absent; MPI_PROC_NULL stays MPI_PROC_NULL). Fails on an invalid rank or n.
GroupOpResult group_translate(const ProcList &a, int n, const int ranks[], const ProcList &b, int out[]);

// MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL.
int group_compare(const ProcList &a, const ProcList &b);

}  // namespace plexus::mpi
