// The layouts of MPI_Type_create_subarray and MPI_Type_create_darray (MPI-2.2 4.1.3, 4.1.4) as
// types made of the ordinary constructors, which the loop builder then compiles like any other.
// Arguments are checked by the caller (framework/mpi/api/datatype_subarray.cc, datatype_darray.cc).
#pragma once

#include "mpi/datatype.h"

namespace plexus::mpi {

// The subarray starting at starts[] of subsizes[] elements (of old) in an array of sizes[],
// stored in `order` (MPI_ORDER_C: the last dimension varies fastest). lb 0, extent the array's.
Datatype *make_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                        Datatype *old);

// The part of a distributed array of gsizes[] elements that process `rank` of a process grid
// psizes[] (row-major, whatever the order) owns under distribs[]/dargs[]. lb 0, extent the array's.
Datatype *make_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                      const int psizes[], int order, Datatype *old);

// t placed at disp bytes and resized to lb 0 and extent (the markers of both layouts); takes
// over t's handle.
Datatype *place_and_resize(Datatype *t, MPI_Aint disp, MPI_Aint extent);

}  // namespace plexus::mpi
