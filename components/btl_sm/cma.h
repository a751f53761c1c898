// Single copy through Cross Memory Attach: process_vm_readv/writev move bytes straight between
// two processes' memories, one copy instead of two through shared fragments.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace plexus::btl_sm {

// Reads (write false) or writes len bytes between local and address remote of process pid,
// looping over partial transfers. 0 on success, else the errno of the failing call.
int cma_transfer(pid_t pid, void *local, uint64_t remote, size_t len, bool write);

// Whether this process may read the word at addr of pid and finds expect there. false and
// *why (naming the cause and, for EPERM, the usual fix) when not.
bool cma_probe(pid_t pid, uint64_t addr, uint64_t expect, std::string *why);

// Whether the kernel offers CMA at all (a read of this process's own memory).
bool cma_available(std::string *why);

}  // namespace plexus::btl_sm
