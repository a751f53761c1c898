// Borrowing another local process's file descriptor (pidfd_getfd), which is how peers reach an
// anonymous segment: it never has a name, so nothing of it survives its last user.
#pragma once

#include <sys/types.h>

#include <string>

namespace plexus::runtime {

// Lets any process of this user ptrace this one: under Yama ptrace_scope=1 only ancestors may,
// and sibling ranks are not ancestors, yet both pidfd_getfd and single copy need it (Open MPI's
// vader does the same). Harmless where Yama is absent.
void allow_node_peers();

// Whether peers can borrow a descriptor of this process (pidfd_getfd exists, Yama's ptrace_scope
// is at most 1). Probed once per process; false and *why otherwise.
bool fd_passing_available(std::string *why);

// A duplicate of descriptor fd of process pid, or -1 with errno.
int borrow_fd(pid_t pid, int fd);

}  // namespace plexus::runtime
