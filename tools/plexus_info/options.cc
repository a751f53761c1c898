#include "options.h"

#include <cstdlib>
#include <cstring>

#include "plexus_config.h"

namespace plexus::info {
namespace {

const char *kUsage =
    "Usage: plexus_info [options]\n"
    "  (no option)              frameworks and their components: version, origin, usability\n"
    "  --show-failed            components that failed to load, with the cause and a hint\n"
    "  --param FW|all COMP|all  parameters: value, source, type, level, help\n"
    "  --level N                show parameters up to level N (1 basic user .. 9 developer; default 1)\n"
    "  --component FW NAME      everything about one component\n"
    "  --select FW              dry run of the selection for FW with the reason for each decision\n"
    "  --comm-size N, --inter   the communicator (or window) a coll/osc dry run is for (default 2)\n"
    "  --json                   machine-readable output of the above\n"
    "  --mca NAME VALUE         set a parameter, as on plexrun's command line\n"
    "  --version, --help\n";

bool parse_int(const char *text, int lo, int hi, int *out) {
    char *end = nullptr;
    long v = std::strtol(text, &end, 10);
    if (!*text || *end || v < lo || v > hi) return false;
    *out = static_cast<int>(v);
    return true;
}

}  // namespace

std::optional<Options> parse_options(int argc, char **argv, std::string *error, std::string *help_text) {
    Options o;
    auto need = [&](int i, int n) {
        if (i + n < argc) return true;
        *error = std::string(argv[i]) + " needs " + std::to_string(n) + " argument(s)\n" + kUsage;
        return false;
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            *help_text = kUsage;
            return std::nullopt;
        } else if (a == "--version") {
            *help_text = std::string("plexus_info (Plexus) ") + PACKAGE_VERSION + "\n";
            return std::nullopt;
        } else if (a == "--show-failed") {
            o.show_failed = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--inter") {
            o.inter = true;
        } else if (a == "--param" || a == "--component" || a == "--mca") {
            if (!need(i, 2)) return std::nullopt;
            auto pair = std::make_pair(std::string(argv[i + 1]), std::string(argv[i + 2]));
            if (a == "--param") o.param = pair;
            else if (a == "--component") o.component = pair;
            else o.mca.push_back(pair);
            i += 2;
        } else if (a == "--select") {
            if (!need(i, 1)) return std::nullopt;
            o.select = argv[++i];
        } else if (a == "--level" || a == "--comm-size") {
            if (!need(i, 1)) return std::nullopt;
            bool level = a == "--level";
            int *target = level ? &o.level : &o.comm_size;
            if (!parse_int(argv[i + 1], 1, level ? 9 : 1 << 24, target)) {
                *error = a + ": '" + argv[i + 1] + "' is not " +
                         (level ? "a level from 1 to 9" : "a positive communicator size") + "\n";
                return std::nullopt;
            }
            ++i;
        } else {
            *error = "unknown option '" + a + "'\n" + kUsage;
            return std::nullopt;
        }
    }
    o.show_components = !o.show_failed && !o.param && !o.component && !o.select;
    return o;
}

}  // namespace plexus::info
