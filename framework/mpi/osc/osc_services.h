// The services table the MPI layer gives osc modules (plexus_osc_services_t): the coll services
// of the window's private communicator, peers and BTL paths from the BML, receive callbacks on
// the osc tag range, byte ranges of typed data, datatype descriptions (dtype_codec.h),
// operation numbers (op_ids.h), MPI_Alloc_mem's memory and where it lies, the window's info,
// the message of the error a call is about to return, and osc_base_verbose.
#pragma once

#include <plexus/osc.h>

namespace plexus::mpi::osc {

// The one table; valid while MPI runs.
const plexus_osc_services_t &services();

}  // namespace plexus::mpi::osc
