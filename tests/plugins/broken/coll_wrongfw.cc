// Broken on purpose: the file and its symbol say coll (plexus_coll_wrongfw_component), the
// descriptor says osc. The loader finds the symbol; the descriptor check must catch the mismatch.
#include <plexus/osc.h>

namespace {

int wrongfw_open(const plexus_host_api_t *, plexus_reason_t *) { return PLEXUS_SUCCESS; }
int wrongfw_close() { return PLEXUS_SUCCESS; }
int wrongfw_query(const void *, plexus_query_result_t *result) {
    result->priority = 0;
    result->module = nullptr;
    return PLEXUS_SUCCESS;
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(coll, wrongfw) = {
    PLEXUS_COMPONENT_INIT(osc, PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR, wrongfw, 1, 0, 0),  // the defect
    "plexus-tests",
    "BSD-3-Clause",
    "broken test component: file says coll, descriptor says osc",
    nullptr,
    wrongfw_open,
    wrongfw_close,
    wrongfw_query,
};
