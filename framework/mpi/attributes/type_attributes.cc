// Datatypes as attribute hosts (type_attributes.h).
#include "mpi/attributes/type_attributes.h"

#include "mpi/attributes/attribute_hooks.h"

namespace plexus::mpi {

AttributeHost attribute_host(Datatype *type) {
    if (!type->attributes) type->attributes = new AttributeStore;
    return {AttributeKind::Datatype, type, type->attributes};
}

int type_attributes_copy(Datatype *from, Datatype *to) {
    if (!from->attributes || from->attributes->entries.empty()) return MPI_SUCCESS;
    return attributes_copy(attribute_host(from), attribute_host(to));
}

int type_attributes_free(Datatype *type) {
    if (!type->attributes) return MPI_SUCCESS;
    const int rc = attributes_delete_all(attribute_host(type));
    delete type->attributes;
    type->attributes = nullptr;
    return rc;
}

}  // namespace plexus::mpi
