#include "output.h"

#include <unistd.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <set>

namespace plexus::mca {
namespace {

struct OutputState {
    std::mutex lock;
    OutputSink sink;
    std::map<std::string, int, std::less<>> verbosity;
    std::set<std::string, std::less<>> warned;
};

OutputState &state() {
    static OutputState s;
    return s;
}

std::string_view framework_of(std::string_view where) {
    return where.substr(0, where.find('_'));
}

std::string format_line(int level, std::string_view where, std::string_view message) {
    std::string line = "plexus";
    if (level == PLEXUS_LOG_ERROR) {
        line += " error";
    } else if (level == PLEXUS_LOG_WARN) {
        line += " warning";
    } else {
        line += "[" + std::to_string(getpid()) + "]";
    }
    line += ": ";
    line += where;
    line += ": ";
    line += message;
    return line;
}

void write_line(OutputState &s, const std::string &line) {
    if (s.sink) {
        s.sink(line);
    } else {
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

}  // namespace

void set_output_sink(OutputSink sink) {
    std::lock_guard guard(state().lock);
    state().sink = std::move(sink);
}

void set_framework_verbosity(std::string_view framework, int level) {
    std::lock_guard guard(state().lock);
    state().verbosity[std::string(framework)] = level;
}

int framework_verbosity(std::string_view framework) {
    std::lock_guard guard(state().lock);
    auto it = state().verbosity.find(framework);
    return it == state().verbosity.end() ? 0 : it->second;
}

void reset_output_state() {
    std::lock_guard guard(state().lock);
    state().verbosity.clear();
    state().warned.clear();
}

void emit(int level, std::string_view where, std::string_view message) {
    if (level > 0 && level > framework_verbosity(framework_of(where))) return;
    OutputState &s = state();
    std::lock_guard guard(s.lock);
    write_line(s, format_line(level, where, message));
}

void warn_once(std::string_view where, std::string_view message) {
    OutputState &s = state();
    std::string line = format_line(PLEXUS_LOG_WARN, where, message);
    std::lock_guard guard(s.lock);
    if (!s.warned.insert(line).second) return;
    write_line(s, line);
}

}  // namespace plexus::mca
