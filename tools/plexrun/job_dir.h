// The job's private directory: libpmix's rendezvous and data-store files live there, and it
// is removed with everything in it when plexrun ends (a killed libpmix leaves pmix_dstor_*).
#pragma once

#include <string>

namespace plexrun {

class JobDir {
public:
    // Creates $TMPDIR/plexrun.XXXXXX (or /tmp/...) with mode 0700; throws std::system_error.
    JobDir();
    ~JobDir();
    JobDir(const JobDir &) = delete;
    JobDir &operator=(const JobDir &) = delete;

    const std::string &path() const { return path_; }

private:
    std::string path_;
};

// rm -rf without following symlinks; errors are ignored (nothing more can be done at exit).
void remove_tree(const std::string &path);

}  // namespace plexrun
