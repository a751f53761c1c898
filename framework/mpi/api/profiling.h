// The profiling interface (MPI-2.2 chapter 14): every function of mpi.h is defined under its
// PMPI_ name and its MPI_ name is a weak alias of it, so that a tool's own MPI_Send (linked before
// libmpi or preloaded) replaces ours and reaches the library through PMPI_Send. Calls inside the
// library use PMPI_ names (or the C++ functions under them), never MPI_ ones, so that a tool sees
// only what the program itself called.
//
// Usage, in the file that defines the function:
//     PLEXUS_MPI_ALIAS(Send)
//     int PMPI_Send(const void *buf, ...) { ... }
#pragma once

#define PLEXUS_MPI_PRAGMA(text) _Pragma(#text)
#define PLEXUS_MPI_ALIAS(name) PLEXUS_MPI_PRAGMA(weak MPI_##name = PMPI_##name)
