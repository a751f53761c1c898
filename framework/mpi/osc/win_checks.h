// Argument checks of the one-sided calls, made in the MPI layer before a module is called
// (osc.h's contract: handles, ranks, counts, same type signatures, operations, lock types,
// assert bits). Each returns MPI_SUCCESS or the reported error, with a message naming the
// function, the argument and its value; errors about the window handle itself go to
// MPI_COMM_WORLD's handler, the others to the window's.
#pragma once

#include <vector>

#include "mpi/comm/group.h"
#include "mpi/op/op.h"
#include "mpi/osc/window.h"

namespace plexus::mpi::osc {

// A window the call may use (MPI_ERR_WIN for MPI_WIN_NULL and handles that are none).
int check_win(const char *function, const Win *win);

// One side of a put, get or accumulate: count >= 0 (MPI_ERR_COUNT), a committed type
// (MPI_ERR_TYPE), a buffer unless count is 0 or the type is derived (MPI_ERR_BUFFER).
int check_side(const char *function, const Win *win, const void *buf, int count, const Datatype *type,
               const char *side);

// The target of a communication call: a rank of the group or MPI_PROC_NULL (MPI_ERR_RANK), a
// displacement >= 0 (MPI_ERR_DISP), a target count and type (as check_side), and the same type
// signature on both sides (MPI_ERR_TYPE, saying where they first differ).
int check_target(const char *function, const Win *win, int origin_count, const Datatype *origin_type, int rank,
                 MPI_Aint disp, int target_count, const Datatype *target_type);

// MPI_Accumulate's op: a predefined operation (MPI_REPLACE included) defined for both types.
int check_accumulate_op(const char *function, const Win *win, const Op *op, const Datatype *origin_type,
                        const Datatype *target_type);

// Assert bits: only those of allowed (MPI_MODE_* of this call) may be set (MPI_ERR_ASSERT).
int check_assert(const char *function, const Win *win, int assert_bits, int allowed);

// MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED (MPI_ERR_LOCKTYPE).
int check_lock_type(const char *function, const Win *win, int lock_type);

// A rank of the window's group, not MPI_PROC_NULL (lock, unlock) (MPI_ERR_RANK).
int check_lock_rank(const char *function, const Win *win, int rank);

// MPI_Win_start / MPI_Win_post: a valid group whose members all belong to the window's group
// (MPI_ERR_GROUP); *ranks gets their window ranks, ascending.
int group_ranks(const char *function, const Win *win, const Group *group, std::vector<int> *ranks);

// The same type signature: the sequence of basic types of count items of a and of b, as runs
// (type, how many). False with *where set (the element index) when they differ.
bool same_signature(int count_a, const Datatype &a, int count_b, const Datatype &b, size_t *where);

}  // namespace plexus::mpi::osc
