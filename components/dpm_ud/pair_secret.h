// The secret two groups share once they met (dpm.h: the remote group's pair_secret), which
// btl_tcp proves between their processes. Derived at both roots from what only the meeting's two
// roots know: the key of the port or the spawn (never sent in the clear: it reaches the other
// root inside the port name or the children's environment), the session and both roots' fresh
// nonces (hello, hello_ack); a datagram observer without the key learns nothing of it. Over a
// joined socket there is no key (zero): the nonces alone, traded on the user's socket, which
// proves nothing against whoever can read that socket, as MPI_Comm_join has no other channel.
#pragma once

#include <array>
#include <cstdint>

#include "address.h"
#include "wire.h"

namespace plexus::dpm_ud {

using PairSecret = std::array<uint8_t, 32>;  // PLEXUS_PEER_SECRET_LEN

PairSecret pair_secret(const Key &key, uint64_t session, const Nonce &starter, const Nonce &answerer);

}  // namespace plexus::dpm_ud
