// What a derived datatype holds beyond the common fields: the arguments it was made with (for
// MPI_Type_get_contents and for building its program), references to the types it was made of,
// its reference counts, and once committed the program that packs it (datatype/loop.h).
#pragma once

#include <memory>
#include <vector>

#include "mpi/datatype.h"
#include "mpi/datatype/loop.h"

namespace plexus::mpi {

struct DerivedType {
    // Handles the program holds: 1 from the constructor, +1 per datatype MPI_Type_get_contents
    // returned. At 0 the handle is invalid for the program (MPI_Type_free).
    int user_refs = 1;
    // Holders inside the library: types made of this one, requests, persistent requests.
    // MPI calls are funneled through one thread (MPI_THREAD_FUNNELED at most): plain ints.
    int internal_refs = 0;

    // The constructor's arguments, as MPI_Type_get_contents returns them.
    std::vector<int> ints;
    std::vector<MPI_Aint> aints;
    std::vector<Datatype *> types;  // each retained while this type exists
    // Subarray and darray types: the same type map made of the other constructors (hindexed,
    // hvector, resized ...), retained. Bounds, elements and the loop program come from it;
    // ints/types above stay what MPI_Type_get_contents reports.
    Datatype *equivalent = nullptr;

    size_t elements = 0;                // basic elements per item
    const Datatype *basic = nullptr;    // the single predefined type it is made of, if any
    std::unique_ptr<LoopProgram> program;  // after MPI_Type_commit
};

// One child run of a type in type-map order: `repeat` consecutive items of `type`.
struct ChildRun {
    size_t repeat;
    const Datatype *type;
};
// The runs of a derived type in type-map order (the order its data is packed in).
std::vector<ChildRun> child_runs(const Datatype &t);

}  // namespace plexus::mpi
