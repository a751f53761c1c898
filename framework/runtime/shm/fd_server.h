// Handing a named segment's descriptor to a local peer over a unix socket: the way in for a
// process that comes after the segment lost its name (a spawned job, a connected job) where it
// cannot borrow the descriptor with pidfd_getfd (Yama ptrace_scope 2, kernels before 5.6,
// seccomp). Anonymous segments need none of this: peers always borrow theirs.
//
// The owner serves on an abstract unix socket, "plexus-shm-<pid>" (abstract: no file, so
// nothing is left behind by any exit), from a thread started with its first offer. A request
// names the segment's 64-bit random tag, which only the job's business cards carry; the owner
// answers only a process of its own uid (SO_PEERCRED) that names a segment it offers, with the
// descriptor (SCM_RIGHTS). The requester checks that the socket's owner is that pid of its uid.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace plexus::runtime {

// Offers descriptor fd (still the caller's) as the segment with tag, until withdraw_fd. false
// (and *why) when this process cannot serve (the socket name is taken, no thread).
bool offer_fd(uint64_t tag, int fd, std::string *why);
void withdraw_fd(uint64_t tag);

// Asks process pid for the descriptor of its segment tag: a new descriptor (close-on-exec), or
// -1 and *why. Waits at most timeout_ms for the answer.
int request_fd(pid_t pid, uint64_t tag, int timeout_ms, std::string *why);

}  // namespace plexus::runtime
