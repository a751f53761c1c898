// Broken on purpose: open() calls a function defined nowhere. Loaded lazily this would only crash
// at that call; the loaders must refuse the file at load time with "undefined symbol: ...".
#include <plexus/btl.h>

// Declared, never defined: the link leaves it unresolved (this plugin is linked without
// -no-undefined). Default visibility despite -fvisibility=hidden, which applies to definitions.
extern "C" int plexus_test_symbol_that_does_not_exist(void);

namespace {

int undefsym_open(const plexus_host_api_t *, plexus_reason_t *) {
    return plexus_test_symbol_that_does_not_exist() == 0 ? PLEXUS_SUCCESS
                                                         : PLEXUS_ERR_NOT_AVAILABLE;
}
int undefsym_close() { return PLEXUS_SUCCESS; }
int undefsym_query(const void *, plexus_query_result_t *result) {
    result->priority = 0;
    result->module = nullptr;
    return PLEXUS_SUCCESS;
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(btl, undefsym) = {
    PLEXUS_COMPONENT_INIT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, undefsym, 1, 0, 0),
    "plexus-tests",
    "BSD-3-Clause",
    "broken test btl: open() calls a function nothing defines",
    nullptr,
    undefsym_open,
    undefsym_close,
    undefsym_query,
};
