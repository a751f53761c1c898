// Hello world for the launch benchmark on Plexus, until mpi.h exists: what MPI_Init and
// MPI_Finalize will do at the runtime level (connect to the launcher, the business-card fence,
// disconnect), so that launch to exit compares like with like.
#include <cstdio>

#include "runtime/runtime.h"

int main() {
    plexus::runtime::RuntimeSession runtime;
    if (!runtime.status()) {
        std::fprintf(stderr, "hello_plexus: runtime init failed\n");
        return 1;
    }
    if (!runtime->fence_init()) {
        std::fprintf(stderr, "hello_plexus: init fence failed\n");
        return 1;
    }
    return runtime->job().rank >= runtime->job().size;
}
