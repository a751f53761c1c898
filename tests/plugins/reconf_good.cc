// A good reconf test component, until the real reconf components exist.
#include <plexus/reconf.h>

#include "test_component.h"

PLEXUS_TEST_COMPONENT(reconf, PLEXUS_RECONF_MAJOR, PLEXUS_RECONF_MINOR, good, "20",
                      "test reconf: always usable, priority from reconf_good_query_priority");
