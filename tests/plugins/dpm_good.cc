// A good dpm test component, until the real dpm components exist.
#include <plexus/dpm.h>

#include "test_component.h"

PLEXUS_TEST_COMPONENT(dpm, PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR, good, "20",
                      "test dpm: always usable, priority from dpm_good_query_priority");
