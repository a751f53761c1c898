// The plexus_dpm_module_t of a DPM component filled in one place: the version the component was
// built against and its entry points, named, so that no component repeats the member-by-member
// assignments and none forgets the version fields.
//
//   plexus::sdk::fill_dpm_module(&module.base, {.init = init, .finalize = finalize, .spawn = spawn,
//                                               .open_port = open_port, .close_port = close_port,
//                                               .accept = accept, .connect = connect, .join = join,
//                                               .disconnect = disconnect});
//
// publish / lookup / unpublish left out stay NULL: the MPI layer then serves MPI_Publish_name and
// friends through the job manager's name service (services->publish).
#pragma once

#include <cstddef>

#include <plexus/dpm.h>

namespace plexus::sdk {

// Every entry point of dpm.h's module, in its order; those not named are NULL.
struct DpmEntryPoints {
    decltype(plexus_dpm_module_t::init) init = nullptr;
    decltype(plexus_dpm_module_t::finalize) finalize = nullptr;
    decltype(plexus_dpm_module_t::spawn) spawn = nullptr;
    decltype(plexus_dpm_module_t::open_port) open_port = nullptr;
    decltype(plexus_dpm_module_t::close_port) close_port = nullptr;
    decltype(plexus_dpm_module_t::accept) accept = nullptr;
    decltype(plexus_dpm_module_t::connect) connect = nullptr;
    decltype(plexus_dpm_module_t::join) join = nullptr;
    decltype(plexus_dpm_module_t::disconnect) disconnect = nullptr;
    decltype(plexus_dpm_module_t::publish) publish = nullptr;
    decltype(plexus_dpm_module_t::lookup) lookup = nullptr;
    decltype(plexus_dpm_module_t::unpublish) unpublish = nullptr;
};

// A member appended to the module in dpm.h must be added above (and below): this fails to
// compile until it is, rather than leaving the new member unset in every component.
static_assert(offsetof(plexus_dpm_module_t, init) + sizeof(DpmEntryPoints) == sizeof(plexus_dpm_module_t),
              "plexus_dpm_module_t has members DpmEntryPoints does not name");

// Sets the version members to the dpm.h this component is compiled against and every entry point
// from e (NULL where e leaves one out).
inline void fill_dpm_module(plexus_dpm_module_t *m, const DpmEntryPoints &e) noexcept {
    m->struct_size = sizeof *m;
    m->major = PLEXUS_DPM_MAJOR;
    m->minor = PLEXUS_DPM_MINOR;
    m->init = e.init;
    m->finalize = e.finalize;
    m->spawn = e.spawn;
    m->open_port = e.open_port;
    m->close_port = e.close_port;
    m->accept = e.accept;
    m->connect = e.connect;
    m->join = e.join;
    m->disconnect = e.disconnect;
    m->publish = e.publish;
    m->lookup = e.lookup;
    m->unpublish = e.unpublish;
}

}  // namespace plexus::sdk
