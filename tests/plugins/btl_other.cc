// A second good btl test component with the same default priority as btl_good, so that ties
// (broken by name) and re-ranking with btl_other_priority can be tested.
#include <plexus/btl.h>

#include "test_component.h"

PLEXUS_TEST_COMPONENT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, other, "30",
                      "test btl: ties with btl_good by default");
