// Parsing plexrun's command line. Options end at the first argument that is not one (or at
// "--"): everything after belongs to the program.
#include "options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "plexus_config.h"

namespace plexrun {
namespace {

constexpr int kMaxRanks = 65535;  // PMIX_LOCAL_RANK is a uint16

struct Parser {
    int argc;
    char **argv;
    int i = 1;
    ParsedCommandLine out;

    bool fail(std::string message) {
        out.action = ParsedCommandLine::Action::Error;
        out.error = std::move(message);
        return false;
    }

    // The value of option NAME: from "--name=value" (inline) or from the next argument.
    std::optional<std::string> value(std::string_view name, std::optional<std::string> inline_value,
                                     std::string_view expects) {
        if (inline_value) return inline_value;
        if (i + 1 >= argc) {
            fail("plexrun: " + std::string(name) + " expects " + std::string(expects) +
                 ", but nothing follows it");
            return std::nullopt;
        }
        return std::string(argv[++i]);
    }

    bool parse_ranks(std::string_view name, const std::string &text) {
        int n = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > kMaxRanks)
            return fail("plexrun: " + std::string(name) + " expects a number of ranks from 1 to " +
                        std::to_string(kMaxRanks) + ", got '" + text + "'");
        out.options.ranks = n;
        return true;
    }

    bool parse_universe(const std::string &text) {
        int n = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > kMaxRanks)
            return fail("plexrun: --universe-size expects a number of processes from 1 to " +
                        std::to_string(kMaxRanks) + ", got '" + text + "'");
        out.options.universe_size = n;
        return true;
    }

    bool parse_timeout(const std::string &text) {
        double s = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), s);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(s) || s <= 0)
            return fail(
                "plexrun: --timeout expects a positive number of seconds (e.g. 30 or 0.5), got '" +
                text + "'");
        out.options.timeout_seconds = s;
        return true;
    }

    // MPIEXEC_TIMEOUT, as Open MPI's and MPICH's launchers read it: seconds, 0 or empty for
    // none; --timeout on the command line wins.
    bool timeout_from_environment() {
        const char *env = std::getenv("MPIEXEC_TIMEOUT");
        if (out.options.timeout_seconds || !env || !*env) return true;
        const std::string text = env;
        double s = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), s);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(s) || s < 0)
            return fail("plexrun: MPIEXEC_TIMEOUT expects a number of seconds (e.g. 30 or 0.5; 0 for "
                        "none), got '" + text + "'");
        if (s > 0) {
            out.options.timeout_seconds = s;
            out.options.timeout_source = "MPIEXEC_TIMEOUT";
        }
        return true;
    }

    bool parse_bind(const std::string &text) {
        if (text == "core")
            out.options.bind = BindPolicy::Core;
        else if (text == "none")
            out.options.bind = BindPolicy::None;
        else
            return fail("plexrun: --bind-to expects one of: core, none; got '" + text + "'");
        return true;
    }

    static bool valid_param_name(std::string_view name) {
        if (name.empty()) return false;
        for (char c : name)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
        return true;
    }

    bool parse_mca() {
        if (i + 2 >= argc)
            return fail(
                "plexrun: --mca expects a parameter name and a value: --mca <name> <value>");
        std::string name = argv[i + 1], val = argv[i + 2];
        i += 2;
        if (!valid_param_name(name) || name == "FROM_CLI")
            return fail(
                "plexrun: --mca expects a parameter name made of letters, digits and '_' "
                "(e.g. btl_sm_fastbox_max), got '" +
                name + "'");
        for (auto &[n, v] : out.options.mca)
            if (n == name) {
                v = val;
                return true;
            }
        out.options.mca.emplace_back(name, val);
        return true;
    }

    // One option at argv[i]; false stops parsing (error, help or version).
    bool option(std::string arg) {
        std::optional<std::string> inline_value;
        if (arg.rfind("--", 0) == 0) {
            if (auto eq = arg.find('='); eq != std::string::npos) {
                inline_value = arg.substr(eq + 1);
                arg.resize(eq);
            }
        }
        if (arg == "-n" || arg == "-np" || arg == "--np" || arg == "--n") {
            auto v = value(arg, inline_value, "a number of ranks");
            return v && parse_ranks(arg, *v);
        }
        if (arg == "--timeout") {
            auto v = value(arg, inline_value, "a number of seconds");
            return v && parse_timeout(*v);
        }
        if (arg == "--universe-size") {
            auto v = value(arg, inline_value, "a number of processes");
            return v && parse_universe(*v);
        }
        if (arg == "--bind-to") {
            auto v = value(arg, inline_value, "one of: core, none");
            return v && parse_bind(*v);
        }
        if (inline_value)
            return fail("plexrun: " + arg + " takes no value (got '" + arg + "=" + *inline_value +
                        "')");
        if (arg == "--mca") return parse_mca();
        if (arg == "--tag-output") {
            out.options.tag_output = true;
            return true;
        }
        if (arg == "--verbose" || arg == "-v") {
            out.options.verbose = true;
            return true;
        }
        if (arg == "--help" || arg == "-h") {
            out.action = ParsedCommandLine::Action::Help;
            return false;
        }
        if (arg == "--version" || arg == "-V") {
            out.action = ParsedCommandLine::Action::Version;
            return false;
        }
        return fail("plexrun: unknown option '" + arg +
                    "'; options are -n/-np/--np, --mca, --tag-output, --timeout, --bind-to, "
                    "--universe-size, --verbose, --help, --version (see plexrun --help)");
    }

    void run() {
        for (; i < argc; ++i) {
            std::string arg = argv[i];
            if (arg == "--") {
                ++i;
                break;
            }
            if (arg.size() < 2 || arg[0] != '-') break;
            if (!option(arg)) return;
        }
        for (; i < argc; ++i) out.options.command.emplace_back(argv[i]);
        if (out.options.command.empty()) {
            fail(
                "plexrun: no program to run; usage: plexrun -n N [options] [--] program [args...]");
            return;
        }
        timeout_from_environment();
        if (out.options.universe_size && *out.options.universe_size < out.options.ranks)
            fail("plexrun: --universe-size " + std::to_string(*out.options.universe_size) +
                 " is smaller than the " + std::to_string(out.options.ranks) +
                 " ranks of -n: the universe holds every running process");
    }
};

}  // namespace

ParsedCommandLine parse_command_line(int argc, char **argv) {
    Parser p{argc, argv, 1, {}};
    p.run();
    return p.out;
}

std::string version_text() {
    return std::string("plexrun (Plexus) ") + PACKAGE_VERSION + "\n";
}

std::string help_text() {
    return R"(usage: plexrun -n N [options] [--] program [args...]
       (also installed as mpirun and mpiexec)

Starts N copies of program on this machine as one PMIx job and serves them as their PMIx
server: fence/modex, abort, spawn, publish/lookup, connect/disconnect. Ranks find the
job-level keys of docs/runtime-contract.md, including plexus.job.secret. Other plexruns of
this user on this machine are reached through a rendezvous in $XDG_RUNTIME_DIR (or
/tmp/plexus-UID): names published there are found here, their processes' keys fetched and
PMIx_Connect spans both.

options:
  -n, -np, --np N        number of ranks (1..65535; default 1)
  --mca NAME VALUE       set Plexus parameter NAME for every rank: the ranks get
                         PLEXUS_MCA_NAME=VALUE and PLEXUS_MCA_FROM_CLI=NAME[,NAME...]
  --tag-output           prefix every line with [JOB,RANK]<stdout>: or [JOB,RANK]<stderr>:
                         (JOB is 1 for the ranks started here, 2, 3, ... for spawned jobs)
  --timeout S            kill the job after S seconds (exit status 124); without it,
                         MPIEXEC_TIMEOUT=S does the same (0 or empty: no limit)
  -v, --verbose          also say on stderr why the job ended when a rank merely exited
                         non-zero (a signal, an abort or a missing finalize always is said)
  --bind-to core|none    core: bind each rank, spawned ones too, to the core the fewest
                         running ranks are bound to (rank i of the first job: core i mod
                         cores); none: no binding. Default: core when a job's ranks and
                         those of every job running fit on the cores, none otherwise
  --universe-size N      PMIX_UNIV_SIZE (MPI_UNIVERSE_SIZE) of every job, and the most
                         processes that may run at once: a spawn that would pass it is
                         refused (PMIX_ERR_OUT_OF_RESOURCE). Default: the CPUs plexrun may
                         use, or the ranks running with a new job if more; not enforced
                         (plexrun oversubscribes)
  --help, --version

behaviour:
  stdout/stderr   forwarded line by line (lines never mixed); a last line without a newline
                  is forwarded at exit (and gets one when tagged)
  stdin           rank 0 reads plexrun's stdin (through plexrun when it is a terminal);
                  every other rank, and every spawned rank, reads /dev/null
  signals         SIGINT, SIGTERM and SIGHUP are forwarded to every rank, which is killed
                  (SIGKILL) if still alive 3 s later or on a second signal; SIGUSR1/SIGUSR2
                  are forwarded only
  spawned jobs    end independently: plexrun exits once every namespace has ended
  failure         a rank exiting non-zero, killed by a signal, calling PMIx_Abort, or exiting
                  after PMIx_Init without PMIx_Finalize ends the whole job (every namespace);
                  one line on stderr says which rank and how, except for a plain non-zero
                  exit (the status says it; --verbose says it too). Nothing goes to stdout
  cleanup         every /dev/shm/plexus-<secret prefix>-* of every namespace, the job's
                  private PMIx directory ($TMPDIR or /tmp, plexrun.XXXXXX) and the
                  rendezvous socket and key are removed

exit status:
  0    every rank exited 0 (after PMIx_Finalize, if it called PMIx_Init)
  N    the first failing rank's exit status; 128+S if it died of signal S; the status given
       to PMIx_Abort (1 if that was 0); 1 for an exit without PMIx_Finalize
  124  --timeout or MPIEXEC_TIMEOUT expired
  128+S plexrun was sent signal S (SIGINT 130, SIGTERM 143, SIGHUP 129)
  2    bad command line;  126/127 program not executable / not found;  1 plexrun's own errors

environment:
  MPIEXEC_TIMEOUT=S      as --timeout S, when --timeout is not given
  PLEXRUN_TRACE=1        trace every PMIx upcall on stderr
)";
}

}  // namespace plexrun
