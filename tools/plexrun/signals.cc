// Blocking the handled signals and reading them from a signalfd.
#include "signals.h"

#include <sys/signalfd.h>

#include <cstring>
#include <string>

namespace plexrun {
namespace {

sigset_t handled() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaddset(&set, sig);
    return set;
}

}  // namespace

void take_signals_synchronously() {
    sigset_t set = handled();
    sigprocmask(SIG_BLOCK, &set, nullptr);
    // A rank's output goes on to a reader that may leave (| head): get EPIPE, not death.
    signal(SIGPIPE, SIG_IGN);
}

UniqueFd open_signalfd() {
    sigset_t set = handled();
    UniqueFd fd(signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
    if (!fd) throw_errno("signalfd");
    return fd;
}

const char *signal_abbrev(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        case SIGUSR1: return "SIGUSR1";
        case SIGUSR2: return "SIGUSR2";
        case SIGKILL: return "SIGKILL";
        default: {
            static thread_local std::string text;
            text = "signal " + std::to_string(sig);
            return text.c_str();
        }
    }
}

}  // namespace plexrun
