// The attributes cached on one communicator (MPI_Comm_set_attr ...): keyval -> value, kept in the
// order they were set, because MPI_Finalize deletes MPI_COMM_SELF's in reverse order of setting.
// The keyvals themselves (callbacks, extra state, reference counts) live in attributes/keyvals.
#pragma once

#include <vector>

namespace plexus::mpi {

class AttributeStore {
public:
    struct Entry {
        int keyval;
        void *value;
    };
    std::vector<Entry> entries;  // in the order they were first set
};

}  // namespace plexus::mpi
