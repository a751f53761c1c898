// The sending side of a BTL's fast channels (btl.h: fast_channel, fast_channel_state,
// fast_channel_stats) as every such BTL keeps it: the state of its channel to one peer, what
// CREATE / QUIESCE / RESUME / DROP do to it, what a grant from the peer turns it into, and the
// counts the stats report. What a channel is (a shared-memory box, an RDMA ring) and the messages
// that ask for, grant and give one back stay the component's; this decides when it sends them.
//
//   struct OutBox : plexus::sdk::FastChannel { ...the component's own members... };
//
//   int Module::fast_channel(Endpoint *ep, plexus_btl_fast_op_t op) {
//       plexus::sdk::FastStep step;
//       const int rc = ep->out.apply(op, &step);
//       if (step == plexus::sdk::FastStep::Request) ...ask the peer, then ep->out.requested()...
//       if (step == plexus::sdk::FastStep::GiveBack) ...tell the peer to drain and free it...
//       return rc;
//   }
#pragma once

#include <cstdint>

#include <plexus/btl.h>

namespace plexus::sdk {

enum class FastState : uint8_t { None, Pending, Active, Quiesced };
// What a PENDING channel becomes once granted (QUIESCE, RESUME and DROP may come before the grant).
enum class FastWant : uint8_t { Active, Quiesced, Dropped };

// What the component does after an operation: nothing more, ask the peer for a channel, or give
// back the one the peer granted (after everything written into it, so the peer drains it first).
enum class FastStep : uint8_t { Nothing, Request, GiveBack };

struct FastChannel {
    FastState state = FastState::None;
    FastWant want = FastWant::Active;
    bool no_auto = false;  // refused, or dropped on purpose: the component's threshold does not ask again

    // What fast_channel_state reports: a channel asked for and already dropped is NONE.
    plexus_btl_fast_state_t reported() const noexcept {
        switch (state) {
        case FastState::Pending:
            return want == FastWant::Dropped ? PLEXUS_BTL_FAST_NONE : PLEXUS_BTL_FAST_PENDING;
        case FastState::Active:
            return PLEXUS_BTL_FAST_ACTIVE;
        case FastState::Quiesced:
            return PLEXUS_BTL_FAST_QUIESCED;
        case FastState::None:
            break;
        }
        return PLEXUS_BTL_FAST_NONE;
    }

    // op on this side's state: PLEXUS_SUCCESS, PLEXUS_ERR_NOT_FOUND (QUIESCE or RESUME of no
    // channel) or PLEXUS_ERR_BAD_PARAM (no such op); *step says what the component does next. A
    // Request leaves the state as it was, so that the component may still refuse it (its capacity)
    // before it calls requested(); a GiveBack has already made the state NONE and no_auto set.
    int apply(plexus_btl_fast_op_t op, FastStep *step) noexcept {
        *step = FastStep::Nothing;
        switch (op) {
        case PLEXUS_BTL_FAST_CREATE:
            if (state == FastState::Pending) want = FastWant::Active;
            if (state == FastState::None) *step = FastStep::Request;
            return PLEXUS_SUCCESS;
        case PLEXUS_BTL_FAST_QUIESCE:
            if (state == FastState::None) return PLEXUS_ERR_NOT_FOUND;
            if (state == FastState::Pending) want = FastWant::Quiesced;
            if (state == FastState::Active) state = FastState::Quiesced;
            return PLEXUS_SUCCESS;
        case PLEXUS_BTL_FAST_RESUME:
            if (state == FastState::None) return PLEXUS_ERR_NOT_FOUND;
            if (state == FastState::Pending) want = FastWant::Active;
            if (state == FastState::Quiesced) state = FastState::Active;
            return PLEXUS_SUCCESS;
        case PLEXUS_BTL_FAST_DROP:
            no_auto = true;  // dropped on purpose: the threshold must not ask again
            if (state == FastState::Pending) want = FastWant::Dropped;  // given back when the grant arrives
            if (state == FastState::Active || state == FastState::Quiesced) {
                state = FastState::None;
                want = FastWant::Active;
                *step = FastStep::GiveBack;
            }
            return PLEXUS_SUCCESS;
        }
        return PLEXUS_ERR_BAD_PARAM;
    }

    // The component asked the peer for a channel (on CREATE, or its own threshold).
    void requested() noexcept {
        state = FastState::Pending;
        want = FastWant::Active;
        no_auto = false;
    }

    // The peer granted the channel asked for: true when it is taken (ACTIVE, or QUIESCED as asked
    // in the meantime: the component fills in where it is), false when it must go back (not asked
    // for any more, or usable is false: the grant does not fit, the peer is being deleted).
    bool granted(bool usable) noexcept {
        if (state != FastState::Pending || want == FastWant::Dropped || !usable) return false;
        state = want == FastWant::Quiesced ? FastState::Quiesced : FastState::Active;
        return true;
    }

    bool in_use() const noexcept { return state == FastState::Active || state == FastState::Quiesced; }
};

// fast_channel_stats' channel counts over a module's endpoints; out_of(endpoint) is its
// FastChannel. The component adds what only it knows (incoming, capacity, the send counts).
template <class Endpoints, class OutOf>
plexus_btl_fast_stats_t count_fast_channels(const Endpoints &endpoints, OutOf out_of) {
    plexus_btl_fast_stats_t s{};
    for (const auto &ep : endpoints) {
        const FastChannel &f = out_of(ep);
        s.active += f.state == FastState::Active;
        s.quiesced += f.state == FastState::Quiesced;
    }
    return s;
}

}  // namespace plexus::sdk
