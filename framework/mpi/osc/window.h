// The library side of MPI_Win: what MPI_Win_create made (memory, size, unit, a private
// duplicate of the communicator), the osc module that serves the window, and what MPI keeps on
// any object (name, error handler, attributes). osc/ creates and frees them (osc_select.h).
#pragma once

#include <cstdint>
#include <string>

#include <plexus/osc.h>

#include "mpi.h"
#include "mpi/attributes/attribute_store.h"
#include "mpi/communicator.h"
#include "mpi/info/info.h"

struct plexus_mpi_win_s {
    // Set while the window exists: garbage and freed handles are MPI_ERR_WIN, not a crash.
    static constexpr uint32_t kMagic = 0x57494e44;  // "WIND"
    uint32_t magic = kMagic;
    void *base = nullptr;
    MPI_Aint size = 0;  // MPI_WIN_SIZE hands out its address
    int disp_unit = 1;  // MPI_WIN_DISP_UNIT too
    int flavor = PLEXUS_OSC_FLAVOR_CREATE;
    // MPI_Comm_dup of the user's communicator, without its attributes: the module's traffic
    // never matches the program's, and the program may free its communicator at once.
    plexus_mpi_comm_s *comm = nullptr;
    plexus_mpi_info_s info;  // the hints MPI_Win_create was given (services.info_get)
    plexus_osc_module_t *module = nullptr;
    std::string component;   // the osc component serving the window ("rdma")
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;  // MPI-2.2 6.6: the default on windows
    std::string name;
    plexus::mpi::AttributeStore attributes;
    // What the module said about the call now failing (services.set_error); taken by the report.
    std::string module_error;
    MPI_Fint fortran = 0;    // MPI_Win_c2f (osc/win_handles.h)
    // The epochs this process has open, as the synchronisation calls that succeeded opened and
    // closed them (api/win_sync.cc): MPI_Win_free refuses inside one before it touches anything
    // (attributes, the module), so that the window stays usable (MPI-2.2 11.2.1).
    struct Epochs {
        bool access = false;    // MPI_Win_start .. MPI_Win_complete
        bool exposure = false;  // MPI_Win_post .. MPI_Win_wait / a successful MPI_Win_test
        int locks = 0;          // MPI_Win_lock .. MPI_Win_unlock, per target
    } epochs;

    int group_size() const { return comm->size(); }
    int rank() const { return comm->rank; }
};

namespace plexus::mpi {

using Win = ::plexus_mpi_win_s;

// A window this process made and has not freed. The handle table says so before the object is
// read: a freed window's memory is gone, so its own magic cannot tell (osc/win_handles.cc).
bool win_valid(const Win *w);

// The osc.h handle of a window is the window itself.
inline plexus_osc_win_t *osc_handle(Win *w) { return reinterpret_cast<plexus_osc_win_t *>(w); }
inline Win *win_object(plexus_osc_win_t *w) { return reinterpret_cast<Win *>(w); }

// "window 3" or the name MPI_Win_set_name gave it; placeholders for null and invalid handles.
std::string win_name(const Win *win);

}  // namespace plexus::mpi
