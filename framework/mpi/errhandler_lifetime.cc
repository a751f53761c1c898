// Reference counting of user error handlers: a handler lives while a handle or a communicator
// refers to it. Predefined handlers are never deleted; communicators do not count toward them.
#include "mpi/errhandler.h"

namespace plexus::mpi {

void errhandler_retain(Errhandler *e) {
    if (!e->predefined) ++e->references;
}

void errhandler_release(Errhandler *e) {
    if (e->predefined) return;
    if (--e->references > 0) return;
    e->magic = 0;  // a stale handle is then refused, not used
    delete e;
}

}  // namespace plexus::mpi
