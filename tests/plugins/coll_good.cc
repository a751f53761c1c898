// A good coll test component, until the real coll components exist.
#include <plexus/coll.h>

#include "test_component.h"

PLEXUS_TEST_COMPONENT(coll, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, good, "20",
                      "test coll: always usable, priority from coll_good_query_priority");
