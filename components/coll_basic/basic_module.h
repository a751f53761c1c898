// coll_basic's module: one per communicator, serving every collective (the intra-communicator
// algorithms or the inter-communicator ones) at one priority, so that it ends every chain.
#pragma once

#include <plexus/coll.h>

#include "basic_context.h"

namespace plexus::coll_basic {

// A module for the communicator of scope (services NULL in dry runs: it is never called then),
// every function at `priority` except scan/exscan on inter-communicators. nullptr when out of memory.
Module *create_module(const plexus_coll_scope_t &scope, int priority, const Params *params);

}  // namespace plexus::coll_basic
