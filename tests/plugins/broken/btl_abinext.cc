// Broken on purpose: a btl component built for the next MCA ABI major. The core must refuse it from
// its descriptor alone ("built for MCA ABI 2.0, ..."), before calling any of its functions.
#include <plexus/btl.h>

namespace {

int abinext_open(const plexus_host_api_t *, plexus_reason_t *) { return PLEXUS_SUCCESS; }
int abinext_close() { return PLEXUS_SUCCESS; }
int abinext_query(const void *, plexus_query_result_t *result) {
    result->priority = 0;
    result->module = nullptr;
    return PLEXUS_SUCCESS;
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(btl, abinext) = {
    .magic = PLEXUS_COMPONENT_MAGIC,
    .struct_size = sizeof(plexus_component_t),
    .abi_major = PLEXUS_MCA_ABI_MAJOR + 1,  // the defect
    .abi_minor = 0,
    .framework = "btl",
    .framework_major = PLEXUS_BTL_MAJOR,
    .framework_minor = PLEXUS_BTL_MINOR,
    .name = "abinext",
    .version_major = 1,
    .version_minor = 0,
    .version_release = 0,
    .reserved0 = 0,
    .package = "plexus-tests",
    .license = "BSD-3-Clause",
    .description = "broken test btl: built for the next MCA ABI major",
    .register_params = nullptr,
    .open = abinext_open,
    .close = abinext_close,
    .query = abinext_query,
};
