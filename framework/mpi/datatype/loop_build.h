// Building a type's loop program (MPI_Type_commit) from the constructors it was made with, and
// simplifying as it goes: counts of 1 and empty parts vanish, runs that touch merge, a vector
// of runs that abut is one run, regular lists become vectors. What is left is what has to move.
#pragma once

#include "mpi/datatype.h"
#include "mpi/datatype/loop.h"

namespace plexus::mpi {

// The program of one item of t (derived or predefined).
LoopProgram build_program(const Datatype &t);

// Whether one item of a type with this program is size contiguous bytes at lb.
bool program_is_contiguous(const LoopProgram &p, ptrdiff_t lb);

}  // namespace plexus::mpi
