// Registration and reading of the runtime's parameters.
#include "runtime/runtime_params.h"

#include <limits>

#include "base/output.h"
#include "base/process_settings.h"

namespace plexus::runtime {
namespace {

mca::ParamSpec int_spec(std::string name, int64_t def, int64_t min, int64_t max, std::string help,
                        int level) {
    mca::ParamSpec s;
    s.name = "runtime_" + std::move(name);
    s.type = PLEXUS_PARAM_INT;
    s.default_text = std::to_string(def);
    s.help = std::move(help);
    s.level = level;
    s.has_range = true;
    s.min = min;
    s.max = max;
    s.framework = "runtime";
    s.component = "base";
    return s;
}

std::vector<mca::ParamSpec> runtime_specs() {
    const RuntimeSettings d;
    const int64_t kU32 = std::numeric_limits<uint32_t>::max() - 1;  // max itself means "forever"
    mca::ParamSpec collect = int_spec("modex_collect", 0, 0, 1,
        "Make the init fence ship every business card to every process (true), instead of "
        "fetching a peer's cards when it is first contacted (false: faster start at scale). "
        "Unset, the cards are collected when the job spans more than one node: PMIx 4.2's "
        "servers answer a direct fetch of a remote process's card from an older copy of its "
        "data when they hold one (Slurm across hosts lost rank 0's cards so)", 6);
    collect.type = PLEXUS_PARAM_BOOL;
    collect.default_text = "false";
    collect.has_range = false;
    return {
        int_spec("base_verbose", 0, 0, 100,
                 "Trace the runtime: 1 start-up (PMIx_Init time, job, secret source), 10 per "
                 "peer (card fetches), 50 per operation, 100 all", 8),
        int_spec("modex_timeout_ms", d.modex_timeout_ms, 1, std::numeric_limits<int>::max(),
                 "How long fetching one peer's business card may take before it fails; peers of "
                 "other namespaces are asked through their server (PMIx rounds up to seconds)", 5),
        std::move(collect),
        int_spec("fence_timeout_ms", d.fence_timeout_ms, 0, std::numeric_limits<int>::max(),
                 "How long a runtime fence may wait for the other processes; 0 waits as long as "
                 "it takes (the launcher ends the job when a process dies)", 6),
        int_spec("progress_spin_count", d.progress.spin_count, 0, kU32,
                 "Polls that found nothing before a waiting process starts to give up its CPU; "
                 "raise it for latency when every rank has a core of its own", 5),
        int_spec("progress_yield_count", d.progress.yield_count, 0, kU32,
                 "Idle polls each followed by sched_yield() before a waiting process starts to "
                 "sleep; unless set, at most 10 where the job has more ranks on the node than "
                 "CPUs (a yield often hands the CPU straight back, a sleep leaves it to the rank "
                 "with the work)", 5),
        int_spec("progress_min_sleep_us", d.progress.min_sleep_us, 1, 1000000,
                 "The first sleep of a waiting process that keeps finding nothing; each further "
                 "idle poll doubles it up to runtime_progress_max_sleep_us", 6),
        int_spec("progress_max_sleep_us", d.progress.max_sleep_us, 0, 1000000,
                 "The longest sleep between polls of an idle waiting process (0: never sleep, "
                 "only yield); bounds how late it notices an event when ranks outnumber cores", 5),
    };
}

int64_t int_of(const mca::ParamRegistry &params, const char *name) {
    const mca::Param *p = params.find(name);
    return p ? p->value.i : 0;
}

}  // namespace

void register_runtime_params(mca::ParamRegistry &params) {
    std::string err;
    for (auto &spec : runtime_specs())
        if (!params.find(spec.name)) params.register_param(std::move(spec), nullptr, &err);
    for (auto &spec : dgram::dgram_param_specs())
        if (!params.find(spec.name)) params.register_param(std::move(spec), nullptr, &err);
}

RuntimeSettings runtime_settings(const mca::ParamRegistry &params) {
    RuntimeSettings s;
    s.verbose = static_cast<int>(int_of(params, "runtime_base_verbose"));
    s.modex_timeout_ms = static_cast<int>(int_of(params, "runtime_modex_timeout_ms"));
    if (const mca::Param *collect = params.find("runtime_modex_collect");
        collect && collect->source != mca::SourceKind::Default)
        s.modex_collect = collect->value.i != 0;
    s.fence_timeout_ms = static_cast<int>(int_of(params, "runtime_fence_timeout_ms"));
    s.progress.spin_count = static_cast<uint32_t>(int_of(params, "runtime_progress_spin_count"));
    s.progress.yield_count = static_cast<uint32_t>(int_of(params, "runtime_progress_yield_count"));
    s.progress.min_sleep_us = static_cast<uint32_t>(int_of(params, "runtime_progress_min_sleep_us"));
    s.progress.max_sleep_us = static_cast<uint32_t>(int_of(params, "runtime_progress_max_sleep_us"));
    s.dgram = dgram::dgram_settings(params);
    return s;
}

RuntimeSettings runtime_settings_from_process() {
    mca::ParamRegistry params(mca::process_settings().settings);
    register_runtime_params(params);
    // The default stands for a value that does not parse; said once, as the MCA core reading
    // the same sources may say it again.
    for (const auto &e : params.errors()) mca::warn_once("runtime", e);
    return runtime_settings(params);
}

int timeout_seconds(int timeout_ms) {
    if (timeout_ms <= 0) return 0;
    return (timeout_ms + 999) / 1000;
}

}  // namespace plexus::runtime
