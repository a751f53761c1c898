// The SDK's shared-memory pieces btl_sm is built from, by the short names its code uses: atomic
// words in shared memory, relative pointers, the MPSC receive FIFO (header-only, inlined on the
// data path) and segments of the core's shm services (plexus/shm.h).
#pragma once

#include <plexus/sdk/rel_ptr.hpp>
#include <plexus/sdk/shared_word.hpp>
#include <plexus/sdk/shm_fifo.hpp>
#include <plexus/sdk/shm_segment.hpp>

namespace plexus::btl_sm {

using sdk::align_up;
using sdk::cas_weak_relaxed;
using sdk::decode;
using sdk::encode;
using sdk::fetch_add_acq_rel;
using sdk::FifoConsumer;
using sdk::FifoProducer;
using sdk::fifo_bytes;
using sdk::fifo_format;
using sdk::is_power_of_two;
using sdk::kCacheLine;
using sdk::load_acquire;
using sdk::load_relaxed;
using sdk::RelPtr;
using sdk::ShmSegment;
using sdk::store_relaxed;
using sdk::store_release;

}  // namespace plexus::btl_sm
