// The rendezvous between plexruns: files, listening, authentication, framed messages.
#include "rendezvous.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "secret.h"
#include "trace.h"
#include "wire.h"

namespace plexrun {
namespace {

enum MessageType : uint8_t {
    kHello = 1,
    kLookupRequest = 2,
    kLookupAnswer = 3,
    kModexRequest = 4,
    kModexAnswer = 5,
    kFence = 6,
    kJobRequest = 7,
    kJobAnswer = 8,
    kHoldsRequest = 9,
    kHoldsAnswer = 10,
};

constexpr uint32_t kMaxMessage = 64u << 20;  // a business card is kilobytes; this is garbage
constexpr int kSendLimitMs = 5000;           // a peer plexrun that reads nothing for this long is lost

std::runtime_error sys_error(const std::string &what) {
    return std::runtime_error(what + ": " + std::strerror(errno));
}

// A directory only this user can use: ours, a directory (not a link), nobody else's bits.
bool private_directory(const std::string &path, std::string *why) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        *why = path + ": " + std::strerror(errno);
        return false;
    }
    if (!S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || (st.st_mode & 077) != 0) {
        *why = path + " is not a directory of mode 0700 owned by this user";
        return false;
    }
    return true;
}

// $XDG_RUNTIME_DIR when it is private (a session manager makes it so; a container's may be
// /tmp), else /tmp/plexus-UID made here.
std::string choose_directory(bool *own) {
    const char *xdg = std::getenv("XDG_RUNTIME_DIR");
    std::string why;
    if (xdg && *xdg && private_directory(xdg, &why)) {
        *own = false;
        return xdg;
    }
    if (xdg && *xdg) trace("rendezvous: not in XDG_RUNTIME_DIR: %s", why.c_str());
    *own = true;
    return "/tmp/plexus-" + std::to_string(::getuid());
}

// The peer's credentials as the kernel saw them at connect time.
bool peer_is(int fd, pid_t pid) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return false;
    return cred.uid == ::getuid() && (pid == 0 || cred.pid == pid);
}

pid_t peer_pid(int fd) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return 0;
    return cred.pid;
}

sockaddr_un address_of(const std::string &path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) throw std::runtime_error(path + ": path too long for a socket");
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    return addr;
}

std::string read_key(const std::string &path) {
    std::ifstream f(path);
    std::string key;
    f >> key;
    return key;
}

}  // namespace

pid_t plexrun_of(const std::string &nspace) {
    const std::string prefix = "plexrun.";
    if (nspace.compare(0, prefix.size(), prefix) != 0) return 0;
    char *end = nullptr;
    long pid = std::strtol(nspace.c_str() + prefix.size(), &end, 10);
    if (!end || *end != '.' || pid <= 0) return 0;
    return static_cast<pid_t>(pid);
}

struct Rendezvous::Link {
    UniqueFd fd;
    pid_t pid = 0;  // known once authenticated
    bool authenticated = false;
    std::vector<char> in;
};

std::string Rendezvous::socket_path(pid_t pid) const {
    return dir_ + "/plexrun-" + std::to_string(pid) + ".sock";
}

std::string Rendezvous::key_path(pid_t pid) const {
    return dir_ + "/plexrun-" + std::to_string(pid) + ".key";
}

std::string Rendezvous::unready_path(pid_t pid) const {
    return dir_ + "/plexrun-" + std::to_string(pid) + ".sock-unready";
}

Rendezvous::Rendezvous(EventLoop &loop, RendezvousHandler &handler)
    : loop_(loop), handler_(handler), secret_(make_job_secret()) {
    dir_ = choose_directory(&own_dir_);
    try {
        create_key();
        listen_on_socket();
    } catch (...) {
        remove_files();  // no destructor runs for an object that was never made
        throw;
    }
}

void Rendezvous::create_key() {
    const pid_t self = ::getpid();
    // Another plexrun may remove an empty /tmp/plexus-UID between our mkdir and our files:
    // then we make it again.
    for (int attempt = 0;; ++attempt) {
        if (own_dir_ && ::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST)
            throw sys_error("cannot create " + dir_);
        std::string why;
        if (!private_directory(dir_, &why)) throw std::runtime_error(why);
        ::unlink(key_path(self).c_str());  // a dead plexrun's, that had our pid
        ::unlink(socket_path(self).c_str());
        UniqueFd key(::open(key_path(self).c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600));
        if (!key) {
            if (errno == ENOENT && own_dir_ && attempt < 5) continue;
            throw sys_error("cannot create " + key_path(self));
        }
        files_ = true;
        std::string line = secret_ + "\n";
        if (::write(key.get(), line.data(), line.size()) != static_cast<ssize_t>(line.size()))
            throw sys_error("cannot write " + key_path(self));
        return;
    }
}

// The socket appears under its name only once it listens: it is bound under a name no other
// plexrun looks at, and renamed (atomically) after listen(). A socket file that exists but
// refuses connections is a dead plexrun's to every other plexrun (connect_to removes it with
// the key); bound under its final name, a plexrun descheduled between bind and listen on a busy
// machine lost both files to a plexrun that looked just then, and nobody found it afterwards
// (tests/launcher/across.sh: both lookups timed out).
void Rendezvous::listen_on_socket() {
    const std::string path = socket_path(::getpid());
    const std::string unready = unready_path(::getpid());
    ::unlink(unready.c_str());  // a dead plexrun's, that had our pid
    listener_ = UniqueFd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!listener_) throw sys_error("socket");
    sockaddr_un addr = address_of(unready);
    // The umask decides the socket file's mode at bind (0777 less it): 0600 from the start.
    mode_t old = ::umask(0177);
    int rc = ::bind(listener_.get(), reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    ::umask(old);
    if (rc != 0 || ::listen(listener_.get(), 64) != 0) {
        ::unlink(unready.c_str());
        throw sys_error("cannot listen on " + unready);
    }
    if (::rename(unready.c_str(), path.c_str()) != 0) {
        ::unlink(unready.c_str());
        throw sys_error("cannot rename " + unready + " to " + path);
    }
    loop_.watch(listener_.get(), EPOLLIN, [this](uint32_t) { accept_one(); });
    trace("rendezvous: listening on %s", path.c_str());
}

Rendezvous::~Rendezvous() {
    for (auto &[fd, link] : links_) loop_.unwatch(fd);
    if (listener_) loop_.unwatch(listener_.get());
    remove_files();
}

void Rendezvous::close_links() {
    auto lookups = std::move(lookups_);
    auto modexes = std::move(modexes_);
    auto jobs = std::move(jobs_);
    auto holds = std::move(holds_);
    lookups_.clear();
    modexes_.clear();
    jobs_.clear();
    holds_.clear();
    for (auto &[fd, link] : links_) loop_.unwatch(fd);
    links_.clear();
    by_pid_.clear();
    for (auto &[id, l] : lookups) l.second(false, {});
    for (auto &[id, m] : modexes) m.second(PMIX_ERR_UNREACH, {});
    for (auto &[id, j] : jobs) j.second(false, {});
    for (auto &[id, h] : holds) h.second(false, false);
}

void Rendezvous::remove_files() {
    if (!files_) return;
    files_ = false;
    ::unlink(socket_path(::getpid()).c_str());
    ::unlink(key_path(::getpid()).c_str());
    if (own_dir_) ::rmdir(dir_.c_str());  // fails, as it should, while other plexruns use it
}

std::vector<pid_t> Rendezvous::others() {
    std::vector<pid_t> out;
    std::unique_ptr<DIR, int (*)(DIR *)> dir(::opendir(dir_.c_str()), ::closedir);
    if (!dir) return out;
    const std::string prefix = "plexrun-", suffix = ".sock", unready = ".sock-unready";
    auto ends_with = [](const std::string &name, const std::string &end) {
        return name.size() > end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
    };
    while (dirent *e = ::readdir(dir.get())) {
        std::string name = e->d_name;
        const bool listening = ends_with(name, suffix);
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            !(listening || ends_with(name, unready)))
            continue;
        pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + prefix.size()));
        if (pid <= 0 || pid == ::getpid()) continue;
        if (::kill(pid, 0) != 0 && errno == ESRCH) {
            // A plexrun killed with SIGKILL: nobody else will remove its files.
            trace("rendezvous: removing the files of dead plexrun %d", pid);
            ::unlink(socket_path(pid).c_str());
            ::unlink(unready_path(pid).c_str());
            ::unlink(key_path(pid).c_str());
            continue;
        }
        if (listening) out.push_back(pid);  // an unready one is asked at a later round
    }
    return out;
}

Rendezvous::Link *Rendezvous::link_to(pid_t pid) {
    if (auto it = by_pid_.find(pid); it != by_pid_.end()) return it->second;
    return connect_to(pid);
}

Rendezvous::Link *Rendezvous::connect_to(pid_t pid) {
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) return nullptr;
    sockaddr_un addr = address_of(socket_path(pid));
    if (::connect(fd.get(), reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        // A socket appears under this name only once it listens (listen_on_socket): refused,
        // its files outlived their plexrun (or its pid went to someone else).
        if (errno == ECONNREFUSED) {
            ::unlink(socket_path(pid).c_str());
            ::unlink(key_path(pid).c_str());
        }
        trace("rendezvous: cannot connect to plexrun %d: %s", pid, std::strerror(errno));
        return nullptr;
    }
    if (!peer_is(fd.get(), pid)) {
        trace("rendezvous: the socket of plexrun %d is not that process of this user", pid);
        return nullptr;
    }
    std::string key = read_key(key_path(pid));
    if (key.empty()) return nullptr;
    set_nonblocking(fd.get());
    auto link = std::make_unique<Link>();
    link->fd = std::move(fd);
    link->pid = pid;
    link->authenticated = true;  // it is who the kernel says; it checks us with the key
    Link *l = link.get();
    int raw = l->fd.get();
    links_[raw] = std::move(link);
    loop_.watch(raw, EPOLLIN, [this, raw](uint32_t) {
        if (auto it = links_.find(raw); it != links_.end()) on_readable(it->second.get());
    });
    if (!send(l, WireWriter().u8(kHello).str(key).u32(static_cast<uint32_t>(::getpid())).frame()))
        return nullptr;
    by_pid_[pid] = l;
    trace("rendezvous: connected to plexrun %d", pid);
    return l;
}

void Rendezvous::accept_one() {
    for (;;) {
        UniqueFd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
        if (!fd) return;
        if (!peer_is(fd.get(), 0)) {
            trace("rendezvous: refused a connection from another user");
            continue;
        }
        auto link = std::make_unique<Link>();
        link->fd = std::move(fd);
        int raw = link->fd.get();
        links_[raw] = std::move(link);
        loop_.watch(raw, EPOLLIN, [this, raw](uint32_t) {
            if (auto it = links_.find(raw); it != links_.end()) on_readable(it->second.get());
        });
    }
}

void Rendezvous::on_readable(Link *link) {
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(link->fd.get(), buf, sizeof buf);
        if (n > 0) {
            link->in.insert(link->in.end(), buf, buf + n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        return drop(link);  // EOF or error
    }
    int fd = link->fd.get();
    while (link->in.size() >= 4) {
        uint32_t len = WireReader(link->in.data(), 4).u32();
        if (len > kMaxMessage) return drop(link);
        if (link->in.size() < 4 + len) return;
        std::vector<char> message(link->in.begin() + 4, link->in.begin() + 4 + len);
        link->in.erase(link->in.begin(), link->in.begin() + 4 + len);
        handle(link, message);
        auto it = links_.find(fd);
        if (it == links_.end() || it->second.get() != link) return;  // handling dropped it
    }
}

void Rendezvous::handle_hello(Link *link, const std::vector<char> &message) {
    WireReader r(message.data(), message.size());
    if (r.u8() != kHello) throw WireError("the first message is not a hello");
    std::string key = r.str();
    pid_t pid = static_cast<pid_t>(r.u32());
    if (key != secret_ || pid != peer_pid(link->fd.get())) throw WireError("wrong key or pid in the hello");
    link->pid = pid;
    link->authenticated = true;
    if (!by_pid_.count(pid)) by_pid_[pid] = link;
    trace("rendezvous: plexrun %d connected", pid);
}

void Rendezvous::handle(Link *link, const std::vector<char> &message) {
    try {
        if (!link->authenticated) return handle_hello(link, message);
        WireReader r(message.data(), message.size());
        const int fd = link->fd.get();
        switch (r.u8()) {
            case kLookupRequest: {
                uint64_t id = r.u64();
                ProcName requester;
                requester.nspace = r.str();
                requester.rank = r.u32();
                std::vector<std::string> keys(r.u32());
                for (auto &k : keys) k = r.str();
                std::vector<FoundEntry> found = handler_.answer_lookup(requester, keys);
                trace("rendezvous: lookup of %s by %s:%u from plexrun %d: %zu found", keys.empty() ? "-" : keys[0].c_str(),
                      requester.nspace.c_str(), requester.rank, link->pid, found.size());
                WireWriter w;
                w.u8(kLookupAnswer).u64(id).u32(static_cast<uint32_t>(found.size()));
                for (auto &f : found) w.str(f.key).str(f.publisher.nspace).u32(f.publisher.rank).blob(f.value);
                send(link, w.frame());
                return;
            }
            case kLookupAnswer: {
                uint64_t id = r.u64();
                std::vector<FoundEntry> found(r.u32());
                for (auto &f : found) {
                    f.key = r.str();
                    f.publisher.nspace = r.str();
                    f.publisher.rank = r.u32();
                    f.value = r.blob();
                }
                auto it = lookups_.find(id);
                if (it == lookups_.end()) return;
                RemoteLookupDone done = std::move(it->second.second);
                lookups_.erase(it);
                return done(true, std::move(found));
            }
            case kModexRequest: {
                uint64_t id = r.u64();
                ProcName proc;
                proc.nspace = r.str();
                proc.rank = r.u32();
                pid_t to = link->pid;
                trace("rendezvous: data of %s:%u asked by plexrun %d", proc.nspace.c_str(), proc.rank, to);
                handler_.answer_dmodex(proc, [this, id, to, fd](pmix_status_t s, std::vector<char> data) {
                    auto it = links_.find(fd);  // the link may have gone meanwhile
                    if (it == links_.end() || it->second->pid != to) return;
                    send(it->second.get(),
                         WireWriter().u8(kModexAnswer).u64(id).u32(static_cast<uint32_t>(s)).blob(data).frame());
                });
                return;
            }
            case kModexAnswer: {
                uint64_t id = r.u64();
                auto status = static_cast<pmix_status_t>(r.u32());
                std::vector<char> data = r.blob();
                auto it = modexes_.find(id);
                if (it == modexes_.end()) return;
                ModexDone done = std::move(it->second.second);
                modexes_.erase(it);
                return done(status, std::move(data));
            }
            case kFence: return handler_.fence_arrived(link->pid, r.str());
            case kJobRequest: {
                uint64_t id = r.u64();
                RemoteJob job;
                bool found = handler_.answer_job(r.str(), &job);
                send(link, WireWriter()
                               .u8(kJobAnswer)
                               .u64(id)
                               .u8(found ? 1 : 0)
                               .u32(job.size)
                               .u32(job.universe_size)
                               .u32(job.apps)
                               .frame());
                return;
            }
            case kJobAnswer: {
                uint64_t id = r.u64();
                bool found = r.u8() != 0;
                RemoteJob job;
                job.size = r.u32();
                job.universe_size = r.u32();
                job.apps = r.u32();
                auto it = jobs_.find(id);
                if (it == jobs_.end()) return;
                RemoteJobDone done = std::move(it->second.second);
                jobs_.erase(it);
                return done(found, job);
            }
            case kHoldsRequest: {
                uint64_t id = r.u64();
                ProcName publisher;
                publisher.nspace = r.str();
                publisher.rank = r.u32();
                std::vector<std::string> keys(r.u32());
                for (auto &k : keys) k = r.str();
                const bool held = handler_.answer_holds(link->pid, publisher, keys);
                trace("rendezvous: does %s stand here? asked by plexrun %d: %s", keys.empty() ? "-" : keys[0].c_str(),
                      link->pid, held ? "yes" : "no");
                send(link, WireWriter().u8(kHoldsAnswer).u64(id).u8(held ? 1 : 0).frame());
                return;
            }
            case kHoldsAnswer: {
                uint64_t id = r.u64();
                const bool held = r.u8() != 0;
                auto it = holds_.find(id);
                if (it == holds_.end()) return;
                RemoteHoldsDone done = std::move(it->second.second);
                holds_.erase(it);
                return done(true, held);
            }
            default: throw WireError("unknown message type");
        }
    } catch (const WireError &e) {
        trace("rendezvous: dropping the link to plexrun %d: %s", link->pid, e.what());
        drop(link);
    }
}

// Blocking, bounded: messages are small and the other side is an event loop that reads.
bool Rendezvous::send(Link *link, const std::vector<char> &frame) {
    size_t off = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSendLimitMs);
    while (off < frame.size()) {
        ssize_t n = ::send(link->fd.get(), frame.data() + off, frame.size() - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
            std::chrono::steady_clock::now() < deadline) {
            pollfd p{link->fd.get(), POLLOUT, 0};
            ::poll(&p, 1, 100);
            continue;
        }
        drop(link);
        return false;
    }
    return true;
}

void Rendezvous::drop(Link *link) {
    const int fd = link->fd.get();
    const pid_t pid = link->pid;
    const bool was_main = pid && by_pid_.count(pid) && by_pid_[pid] == link;
    if (was_main) by_pid_.erase(pid);
    loop_.unwatch(fd);
    auto node = links_.extract(fd);  // alive until the callbacks below have run
    std::vector<RemoteLookupDone> lost_lookups;
    std::vector<ModexDone> lost_modexes;
    std::vector<RemoteJobDone> lost_jobs;
    for (auto it = jobs_.begin(); it != jobs_.end();)
        if (it->second.first == fd) {
            lost_jobs.push_back(std::move(it->second.second));
            it = jobs_.erase(it);
        } else {
            ++it;
        }
    for (auto it = lookups_.begin(); it != lookups_.end();)
        if (it->second.first == fd) {
            lost_lookups.push_back(std::move(it->second.second));
            it = lookups_.erase(it);
        } else {
            ++it;
        }
    std::vector<RemoteHoldsDone> lost_holds;
    for (auto it = holds_.begin(); it != holds_.end();)
        if (it->second.first == fd) {
            lost_holds.push_back(std::move(it->second.second));
            it = holds_.erase(it);
        } else {
            ++it;
        }
    for (auto it = modexes_.begin(); it != modexes_.end();)
        if (it->second.first == fd) {
            lost_modexes.push_back(std::move(it->second.second));
            it = modexes_.erase(it);
        } else {
            ++it;
        }
    trace("rendezvous: link to plexrun %d closed", pid);
    for (auto &d : lost_lookups) d(false, {});
    for (auto &d : lost_modexes) d(PMIX_ERR_UNREACH, {});
    for (auto &d : lost_jobs) d(false, {});
    for (auto &d : lost_holds) d(false, false);
    if (was_main && link->authenticated) handler_.plexrun_lost(pid);
}

void Rendezvous::lookup(pid_t pid, const ProcName &requester, const std::vector<std::string> &keys,
                        RemoteLookupDone done) {
    Link *l = link_to(pid);
    if (!l) return done(false, {});
    uint64_t id = next_request_++;
    WireWriter w;
    w.u8(kLookupRequest).u64(id).str(requester.nspace).u32(requester.rank).u32(static_cast<uint32_t>(keys.size()));
    for (auto &k : keys) w.str(k);
    lookups_[id] = {l->fd.get(), std::move(done)};
    send(l, w.frame());  // a failure has called done through drop
}

void Rendezvous::holds(pid_t pid, const ProcName &publisher, const std::vector<std::string> &keys,
                       RemoteHoldsDone done) {
    Link *l = link_to(pid);
    if (!l) return done(false, false);
    uint64_t id = next_request_++;
    WireWriter w;
    w.u8(kHoldsRequest).u64(id).str(publisher.nspace).u32(publisher.rank).u32(static_cast<uint32_t>(keys.size()));
    for (auto &k : keys) w.str(k);
    holds_[id] = {l->fd.get(), std::move(done)};
    send(l, w.frame());  // a failure has called done through drop
}

void Rendezvous::job(pid_t pid, const std::string &nspace, RemoteJobDone done) {
    Link *l = link_to(pid);
    if (!l) return done(false, {});
    uint64_t id = next_request_++;
    jobs_[id] = {l->fd.get(), std::move(done)};
    send(l, WireWriter().u8(kJobRequest).u64(id).str(nspace).frame());
}

void Rendezvous::dmodex(pid_t pid, const ProcName &proc, ModexDone done) {
    Link *l = link_to(pid);
    if (!l) return done(PMIX_ERR_UNREACH, {});
    uint64_t id = next_request_++;
    modexes_[id] = {l->fd.get(), std::move(done)};
    send(l, WireWriter().u8(kModexRequest).u64(id).str(proc.nspace).u32(proc.rank).frame());
}

bool Rendezvous::send_fence(pid_t pid, const std::string &signature) {
    Link *l = link_to(pid);
    return l && send(l, WireWriter().u8(kFence).str(signature).frame());
}

}  // namespace plexrun
