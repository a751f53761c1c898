// How the two roots reach each other while they meet: through the job manager's name service
// (spawn, ports) or over a socket (join). Strings in order; every receive bounded. Both return
// an MPI error class and leave a message through services->set_error.
#pragma once

#include <string>

#include <plexus/dpm.h>

namespace plexus::dpm_pmix {

class Channel {
public:
    virtual ~Channel() = default;
    virtual int send(const std::string &message) = 0;
    virtual int recv(std::string *message) = 0;
    // The meeting failed at this root: take back what was sent and may never be read, so that it
    // does not stay in the job manager's store for the rest of the job.
    virtual void abandon() {}
};

// Messages as one-shot published keys: <out>.<n> for the n-th sent, <in>.<n> for the n-th
// received (a key disappears when read).
class NameChannel final : public Channel {
public:
    NameChannel(const plexus_dpm_services_t *s, std::string out, std::string in, int timeout_ms)
        : s_(s), out_(std::move(out)), in_(std::move(in)), timeout_ms_(timeout_ms) {}
    int send(const std::string &message) override;
    int recv(std::string *message) override;
    void abandon() override;

private:
    const plexus_dpm_services_t *s_;
    std::string out_, in_;
    int timeout_ms_;
    unsigned sent_ = 0, received_ = 0;
};

// Takes back key, published here with publish_as (whether or not it was read meanwhile).
void withdraw(const plexus_dpm_services_t *s, const std::string &key);

// Length-prefixed messages over a connected socket, each read waiting at most timeout_ms.
class FdChannel final : public Channel {
public:
    FdChannel(const plexus_dpm_services_t *s, int fd, int timeout_ms) : s_(s), fd_(fd), timeout_ms_(timeout_ms) {}
    int send(const std::string &message) override;
    int recv(std::string *message) override;

private:
    // Waits for fd to be readable or writable; false (message set) at the timeout or on error.
    bool ready(short events, const char *what);
    const plexus_dpm_services_t *s_;
    int fd_;
    int timeout_ms_;
};

}  // namespace plexus::dpm_pmix
