// Job secrets and the removal of the shared-memory objects named after them.
#include "secret.h"

#include <dirent.h>
#include <sys/mman.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <vector>

#include "unique_fd.h"

namespace plexrun {

std::string make_job_secret() {
    uint8_t bytes[32];
    size_t got = 0;
    while (got < sizeof bytes) {
        ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw_errno("getrandom");
        got += static_cast<size_t>(n);
    }
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    for (uint8_t b : bytes) {
        hex += digits[b >> 4];
        hex += digits[b & 15];
    }
    return hex;
}

std::string shm_prefix_of(const std::string &secret) {
    return "plexus-" + secret.substr(0, 16) + "-";
}

int remove_shm_objects(const std::string &prefix) {
    std::unique_ptr<DIR, int (*)(DIR *)> dir(::opendir("/dev/shm"), ::closedir);
    if (!dir) return 0;
    std::vector<std::string> doomed;
    while (dirent *e = ::readdir(dir.get())) {
        std::string name = e->d_name;
        if (name.compare(0, prefix.size(), prefix) == 0) doomed.push_back(name);
    }
    int removed = 0;
    for (const std::string &name : doomed)
        if (::shm_unlink(("/" + name).c_str()) == 0) ++removed;
    return removed;
}

}  // namespace plexrun
