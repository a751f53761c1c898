// plexrun (also mpirun, mpiexec): Plexus's launcher for one machine, a PMIx server host.
// See plexrun --help and tools/plexrun/README.md.
#include <fcntl.h>

#include <cstdio>
#include <exception>

#include "launcher.h"
#include "options.h"
#include "signals.h"

#ifdef __SANITIZE_ADDRESS__
// libpmix 4.2 leaves allocations unfreed at PMIx_server_finalize; in a sanitizer build that
// must not turn every run into a LeakSanitizer failure.
extern "C" const char *__lsan_default_suppressions() {
    return "leak:libpmix.so\n";
}
extern "C" const char *__lsan_default_options() {
    return "print_suppressions=0";
}
#endif

namespace {

// With 0, 1 or 2 closed (a CI runner without stdin, say), the next file plexrun opens would
// take that number, and a rank's pipe could end up being plexrun's "stdout".
void ensure_standard_fds() {
    for (int fd = 0; fd <= 2; ++fd)
        if (::fcntl(fd, F_GETFD) < 0) ::open("/dev/null", O_RDWR);  // takes the lowest free fd
}

}  // namespace

int main(int argc, char **argv) {
    using namespace plexrun;
    ensure_standard_fds();
    ParsedCommandLine cl = parse_command_line(argc, argv);
    switch (cl.action) {
        case ParsedCommandLine::Action::Help: std::fputs(help_text().c_str(), stdout); return 0;
        case ParsedCommandLine::Action::Version:
            std::fputs(version_text().c_str(), stdout);
            return 0;
        case ParsedCommandLine::Action::Error:
            std::fprintf(stderr, "%s\n", cl.error.c_str());
            return kUsageExitStatus;
        case ParsedCommandLine::Action::Run: break;
    }
    // Before any thread exists (libpmix starts one), so that every thread blocks them.
    take_signals_synchronously();
    try {
        Launcher launcher(std::move(cl.options));
        return launcher.run();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "plexrun: %s\n", e.what());
        return 1;
    }
}
