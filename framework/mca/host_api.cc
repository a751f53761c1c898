#include "host_api.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "mca_core.h"
#include "output.h"
#include "runtime/progress.h"
#include "runtime/topology.h"

namespace plexus::mca {
namespace {

// Every entry point checks its caller: a component from another build may pass anything.
ComponentRecord *caller(const plexus_component_t *self) {
    McaCore *core = McaCore::current();
    return core && self ? core->repository().find(self) : nullptr;
}

std::string where(const plexus_component_t *self) {
    ComponentRecord *c = caller(self);
    return c ? c->full_name() : "unknown component";
}

int param_register(const plexus_component_t *self, const plexus_param_desc_t *desc) {
    ComponentRecord *c = caller(self);
    if (!c || !desc || desc->struct_size < offsetof(plexus_param_desc_t, storage) + sizeof(void *) ||
        !desc->name)
        return PLEXUS_ERR_BAD_PARAM;
    ParamSpec spec;
    spec.name = c->full_name() + "_" + desc->name;
    spec.type = desc->type;
    spec.default_text = desc->default_value ? desc->default_value : "";
    spec.help = desc->help ? desc->help : "";
    spec.level = desc->level;
    for (auto v = desc->enum_values; v && *v; ++v) spec.enum_values.emplace_back(*v);
    spec.has_range = desc->has_range != 0;
    spec.min = desc->min;
    spec.max = desc->max;
    spec.framework = c->framework;
    spec.component = c->name;
    std::string err;
    if (!McaCore::current()->params().register_param(spec, desc->storage, &err)) {
        emit(PLEXUS_LOG_ERROR, c->full_name(), "cannot register parameter: " + err);
        return PLEXUS_ERR_BAD_PARAM;
    }
    return PLEXUS_SUCCESS;
}

int param_lookup(const char *full_name, plexus_param_value_t *out) {
    McaCore *core = McaCore::current();
    if (!core || !full_name || !out) return PLEXUS_ERR_BAD_PARAM;
    const Param *p = core->params().find(full_name);
    if (!p) return PLEXUS_ERR_NOT_FOUND;
    out->type = p->spec.type;
    out->i = p->value.i;
    out->u = p->value.u;
    out->d = p->value.d;
    out->s = p->value.text.c_str();
    out->list = p->list_cstrs.data();
    out->source = p->origin.c_str();
    return PLEXUS_SUCCESS;
}

void log(const plexus_component_t *self, int level, const char *fmt, ...) {
    if (!fmt) return;
    std::string w = where(self);
    if (level > 0 && level > framework_verbosity(w.substr(0, w.find('_')))) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    emit(level, w, buf);
}

int verbosity(const plexus_component_t *self) {
    ComponentRecord *c = caller(self);
    return c ? framework_verbosity(c->framework) : 0;
}

int progress_register(plexus_progress_fn_t fn, void *ctx) {
    McaCore *core = McaCore::current();
    return core ? core->progress().add(fn, ctx) : PLEXUS_ERROR;
}

int progress_unregister(plexus_progress_fn_t fn, void *ctx) {
    McaCore *core = McaCore::current();
    return core ? core->progress().remove(fn, ctx) : PLEXUS_ERROR;
}

int topology_summary(plexus_topology_summary_t *out) {
    McaCore *core = McaCore::current();
    if (!core || !out || out->struct_size < sizeof(plexus_topology_summary_t)) return PLEXUS_ERR_BAD_PARAM;
    try {
        *out = core->topology().summary();
    } catch (const std::exception &e) {
        emit(PLEXUS_LOG_WARN, "mca", std::string("topology unavailable: ") + e.what());
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    return PLEXUS_SUCCESS;
}

int topology_relation(const char *a, const char *b, unsigned *shared) {
    McaCore *core = McaCore::current();
    if (!core || !a || !b || !shared) return PLEXUS_ERR_BAD_PARAM;
    try {
        return core->topology().relation(a, b, shared) == 0 ? PLEXUS_SUCCESS : PLEXUS_ERR_BAD_PARAM;
    } catch (const std::exception &) {
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
}

int topology_self_cpuset(char *buf, size_t len) {
    McaCore *core = McaCore::current();
    if (!core || !buf || len == 0) return PLEXUS_ERR_BAD_PARAM;
    try {
        std::string set = core->topology().self_cpuset();
        if (set.size() >= len) return PLEXUS_ERR_OUT_OF_RESOURCE;
        std::memcpy(buf, set.c_str(), set.size() + 1);
    } catch (const std::exception &) {
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    return PLEXUS_SUCCESS;
}

const plexus_host_api_t kTable = {
    sizeof(plexus_host_api_t), PLEXUS_HOST_API_MAJOR, PLEXUS_HOST_API_MINOR,
    param_register, param_lookup, log, verbosity, progress_register, progress_unregister,
    topology_summary, topology_relation, topology_self_cpuset,
};

}  // namespace

const plexus_host_api_t *host_api_table() { return &kTable; }

}  // namespace plexus::mca
