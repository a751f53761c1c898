// Describing and registering a component's parameters: one constructor per type, so that the
// storage the core writes into always has the type the core writes (param.h), and the optional
// parts (range, enum values) chained on.
//
//   plexus::sdk::register_params(host, self, {
//       plexus::sdk::int_param("fifo_size", &p->fifo_size, "1024", "Slots of ...", 6).range(64, 65536),
//       plexus::sdk::enum_param("single_copy", &p->single_copy, kValues, "cma", "Mechanism ...", 3),
//   });
#pragma once

#include <cstdint>
#include <initializer_list>

#include <plexus/component.h>

namespace plexus::sdk {

// A plexus_param_desc_t with struct_size set; converts to it.
class ParamDesc {
public:
    ParamDesc(const char *name, plexus_param_type_t type, void *storage, const char *default_value,
              const char *help, int level) noexcept
        : d_{} {
        d_.struct_size = sizeof d_;
        d_.name = name;
        d_.type = type;
        d_.default_value = default_value;
        d_.help = help;
        d_.level = level;
        d_.storage = storage;
    }
    // INT only: values outside [min, max] are refused by the core with the range in the message.
    ParamDesc &range(int64_t min, int64_t max) noexcept {
        d_.has_range = 1;
        d_.min = min;
        d_.max = max;
        return *this;
    }
    const plexus_param_desc_t &desc() const noexcept { return d_; }

private:
    friend ParamDesc enum_param(const char *, int *, const char *const *, const char *, const char *, int) noexcept;
    plexus_param_desc_t d_;
};

inline ParamDesc bool_param(const char *name, int *storage, const char *def, const char *help, int level) noexcept {
    return ParamDesc(name, PLEXUS_PARAM_BOOL, storage, def, help, level);
}
inline ParamDesc int_param(const char *name, int64_t *storage, const char *def, const char *help, int level) noexcept {
    return ParamDesc(name, PLEXUS_PARAM_INT, storage, def, help, level);
}
inline ParamDesc size_param(const char *name, uint64_t *storage, const char *def, const char *help, int level) noexcept {
    return ParamDesc(name, PLEXUS_PARAM_SIZE, storage, def, help, level);
}
inline ParamDesc double_param(const char *name, double *storage, const char *def, const char *help, int level) noexcept {
    return ParamDesc(name, PLEXUS_PARAM_DOUBLE, storage, def, help, level);
}
inline ParamDesc string_param(const char *name, const char **storage, const char *def, const char *help,
                              int level) noexcept {
    return ParamDesc(name, PLEXUS_PARAM_STRING, storage, def, help, level);
}
inline ParamDesc list_param(const char *name, const char *const **storage, const char *def, const char *help,
                            int level) noexcept {
    return ParamDesc(name, PLEXUS_PARAM_LIST, storage, def, help, level);
}
// values: NULL-terminated, alive as long as the core (a static array); storage gets the index.
inline ParamDesc enum_param(const char *name, int *storage, const char *const *values, const char *def,
                            const char *help, int level) noexcept {
    ParamDesc p(name, PLEXUS_PARAM_ENUM, storage, def, help, level);
    p.d_.enum_values = values;
    return p;
}

// Registers each in order; stops at the first the core refuses and returns its code (the core
// has said why, naming the parameter).
inline int register_params(const plexus_host_api_t *host, const plexus_component_t *self,
                           std::initializer_list<ParamDesc> params) noexcept {
    if (!host || !host->param_register) return PLEXUS_ERR_NOT_AVAILABLE;
    for (const ParamDesc &p : params)
        if (int rc = host->param_register(self, &p.desc()); rc != PLEXUS_SUCCESS) return rc;
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::sdk
