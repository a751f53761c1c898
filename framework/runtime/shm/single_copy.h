// Single copy between the processes of a node through Cross Memory Attach: process_vm_readv and
// process_vm_writev move bytes straight from one process's memory to another's, one copy where
// a shared fragment takes two.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include <plexus/shm.h>

#include "runtime/status.h"

namespace plexus::runtime {

// Reads (write false) or writes between the local and remote lists, which hold the same number
// of bytes, continuing over the kernel's partial transfers. PLEXUS_ERR_NOT_AVAILABLE (not
// permitted), UNREACH (no such process), BAD_PARAM (lists, or an unmapped remote address).
Status single_copy(pid_t pid, const plexus_shm_iovec_t *local, size_t nlocal, const plexus_shm_remote_iovec_t *remote,
                   size_t nremote, bool write);

// One contiguous range each way: what most callers move.
Status single_copy(pid_t pid, void *local, uint64_t remote, size_t len, bool write);

// Whether this process may read the word at addr of pid and finds expect there.
Status single_copy_probe(pid_t pid, uint64_t addr, uint64_t expect);

// Whether the kernel offers single copy at all (a read of this process's own memory).
Status single_copy_available();

}  // namespace plexus::runtime
