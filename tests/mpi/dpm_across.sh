#!/bin/sh
# MPI_Comm_connect / MPI_Comm_accept between two plexruns of this user (issue 19 item 5), under
# btl self,sm only (so btl_sm reaches the other plexrun's processes); tests/mpi/dpm_across_pair.sh
# says what the two jobs do.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/mpi/dpm_across_pair.sh"
across_pair "" "plexus-test-across-$$" --mca btl self,sm
across_no_leftovers
finish
