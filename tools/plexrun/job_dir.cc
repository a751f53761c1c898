// Creating and removing the job's private directory.
#include "job_dir.h"

#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "unique_fd.h"

namespace plexrun {

JobDir::JobDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/plexrun.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    // mkdtemp creates it 0700: no other user can plant or read rendezvous files.
    if (!::mkdtemp(buf.data())) throw_errno("cannot create the job directory " + tmpl);
    path_ = buf.data();
}

JobDir::~JobDir() {
    remove_tree(path_);
}

void remove_tree(const std::string &path) {
    auto remove_one = [](const char *p, const struct stat *, int, struct FTW *) -> int {
        std::remove(p);
        return 0;
    };
    ::nftw(path.c_str(), remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace plexrun
