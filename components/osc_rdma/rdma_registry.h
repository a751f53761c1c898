// The windows of one services table (one MPI process; a test's fake process), found by the id
// their messages carry: the osc tag is the framework's, shared by every window, so the receive
// callback is registered with the first window and removed with the last.
#pragma once

#include <cstdint>

#include <plexus/osc.h>

namespace plexus::osc_rdma {

class Window;

// The tag every osc_rdma message travels on.
inline constexpr uint8_t kTag = PLEXUS_BTL_TAG_OSC_FIRST;

// Adds w under a new id (registering the receive callback with the first window); returns the id
// in *id, or an MPI error class.
int registry_add(const plexus_osc_services_t *svc, Window *w, uint32_t *id);
void registry_remove(const plexus_osc_services_t *svc, uint32_t id);

}  // namespace plexus::osc_rdma
