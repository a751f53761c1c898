// A good osc test component, until the real osc components exist.
#include <plexus/osc.h>

#include "test_component.h"

PLEXUS_TEST_COMPONENT(osc, PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR, good, "20",
                      "test osc: always usable, priority from osc_good_query_priority");
