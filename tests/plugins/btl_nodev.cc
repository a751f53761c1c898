// A btl test component for hardware this machine lacks: it loads, registers its parameters and
// declines in open() with the reason, as btl_openib does without an HCA.
#include <plexus/btl.h>

#include <cstdio>

#include "test_component.h"

namespace {

int open_without_device(const plexus_host_api_t *host, plexus_reason_t *why) {
    plexus_test::state().host = host;
    std::snprintf(why->text, sizeof why->text,
                  "no plexus-test device present (this component never finds one)");
    return PLEXUS_ERR_NOT_AVAILABLE;
}

int register_nodev(const plexus_host_api_t *host, const plexus_component_t *self) {
    return plexus_test::register_params(host, self, "60");
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(btl, nodev) = {
    PLEXUS_COMPONENT_INIT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, nodev, 1, 0, 0),
    "plexus-tests", "BSD-3-Clause", "test btl: hardware-specific, declines without its device",
    register_nodev, open_without_device, plexus_test::close_ok, plexus_test::query_by_params};
