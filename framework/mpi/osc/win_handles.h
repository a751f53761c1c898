// Fortran numbers of windows (MPI_Win_c2f / MPI_Win_f2c): a window gets the next free number
// at creation and gives it back when freed; 0 is MPI_WIN_NULL.
#pragma once

#include "mpi/osc/window.h"

namespace plexus::mpi {

// Gives win its number (win->fortran).
void win_register(Win *win);
// Takes the number back; f2c of it is MPI_WIN_NULL from then on.
void win_unregister(Win *win);
// The window of a number, or MPI_WIN_NULL.
Win *win_of_fortran(MPI_Fint number);

}  // namespace plexus::mpi
