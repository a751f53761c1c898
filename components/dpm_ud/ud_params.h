// dpm_ud's parameters (README.md, "Parameters").
#pragma once

#include <cstdint>

#include <plexus/component.h>

namespace plexus::dpm_ud {

struct UdParams {
    int mode = 0;                    // index in kModes: ud, rc, auto
    int64_t auto_threshold = 256;    // processes in both groups from which auto picks rc
    const char *interface = "";      // "" : runtime_dgram_if
};

extern const char *const kModes[];

int register_ud_params(const plexus_host_api_t *host, const plexus_component_t *self, UdParams *p);

}  // namespace plexus::dpm_ud
