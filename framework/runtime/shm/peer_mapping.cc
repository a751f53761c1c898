// See peer_mapping.h.
#include "runtime/shm/peer_mapping.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/shm/fd_borrow.h"
#include "runtime/unique_fd.h"

namespace plexus::runtime {

Status PeerMapping::map(pid_t pid, int fd, uint64_t offset, uint64_t len, PeerMapping *out) {
    const std::string what = "descriptor " + std::to_string(fd) + " of pid " + std::to_string(pid);
    if (pid <= 0 || fd < 0 || len == 0) return Status::error(PLEXUS_ERR_BAD_PARAM, "peer_map: no bytes, or not a " + what);
    UniqueFd file(borrow_fd(pid, fd));
    if (file.get() < 0)
        return Status::error(PLEXUS_ERR_UNREACH, "pidfd_getfd of " + what + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(file.get(), &st) != 0) return Status::error(PLEXUS_ERROR, "cannot stat " + what + ": " + std::strerror(errno));
    // Past the end of the file a mapping would SIGBUS at first touch: refuse it here.
    if (offset > uint64_t(st.st_size) || len > uint64_t(st.st_size) - offset)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + len) +
                                                       ") are not inside the " + std::to_string(st.st_size) +
                                                       "-byte file of " + what);
    const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
    const uint64_t first = offset / page * page;
    const size_t span = size_t(offset + len - first);
    void *p = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_SHARED, file.get(), off_t(first));
    if (p == MAP_FAILED) return Status::error(PLEXUS_ERR_OUT_OF_RESOURCE, "mmap of " + what + ": " + std::strerror(errno));
    out->map_ = Mapping(p, span);
    out->into_page_ = size_t(offset - first);
    return Status::ok();
}

}  // namespace plexus::runtime
