// A good btl test component (generic band), until the real BTLs exist.
#include <plexus/btl.h>

#include "test_component.h"

PLEXUS_TEST_COMPONENT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, good, "30",
                      "test btl: always usable, priority from btl_good_query_priority");
