// Datatypes as attribute hosts (type_attributes.h).
#include "mpi/attributes/type_attributes.h"

#include "mpi/attributes/attribute_hooks.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/derived_type.h"

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

int dup_type(Datatype *old, Datatype **dup) {
    Datatype *t = make_dup(old);
    if (int rc = type_attributes_copy(old, t)) {
        free_handle(t);  // its copies were deleted by attributes_copy
        return rc;
    }
    *dup = t;
    return MPI_SUCCESS;
}

int free_type(Datatype *type) {
    // Handles MPI_Type_get_contents gave out name the same type: the attributes go with the last.
    if (type->derived->user_refs == 1)
        if (int rc = type_attributes_free(type)) return rc;
    free_handle(type);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
