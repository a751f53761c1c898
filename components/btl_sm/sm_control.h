// btl_sm's own control messages, on internal tags through the FIFO: the fast-box handshake.
//   REQUEST  sender -> receiver: may I have a fast box?
//   GRANT    receiver -> sender: yes, this one (index, offset in the receiver's segment, size)
//   REFUSE   receiver -> sender: no room (btl_sm_fastbox_max reached or boxes off)
//   DROP     sender -> receiver: I stopped using box index; drain it and take it back
#pragma once

#include <cstdint>

#include <plexus/btl.h>

namespace plexus::btl_sm {

enum : uint8_t {
    kCtlBoxRequest = PLEXUS_BTL_TAG_INTERNAL_FIRST,
    kCtlBoxGrant,
    kCtlBoxRefuse,
    kCtlBoxDrop,
};

struct BoxGrant {
    uint32_t index;
    uint32_t offset;  // of the box (control line + ring) in the granting process's segment
    uint32_t ring;    // ring bytes
};

struct BoxDrop {
    uint32_t index;
};

}  // namespace plexus::btl_sm
