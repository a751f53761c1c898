// op_allowed: the MPI-2.2 5.9.2 table, applied to derived types through the one predefined type
// they are made of.
#include <string>

#include "mpi/error_report.h"
#include "mpi/op/op.h"
#include "mpi/op/op_types.h"

namespace plexus::mpi {

bool op_allowed(const Op &op, const Datatype &type, std::string *why) {
    if (op.kind == OpKind::User || op.kind == OpKind::Replace) return true;
    if (type.size == 0) return true;  // no data: nothing to reduce
    const Datatype *basic = nullptr;
    size_t per_item = 0;
    BasicClass cls;
    if (!uniform_basic(type, &basic, &per_item)) {
        if (why)
            *why = std::string(op.name) + " is not defined for " + type_name(&type) +
                   ": it mixes several predefined types, and a predefined operation needs a type made of one "
                   "predefined type only (" + op.name + " takes " + op_type_list(op.kind) + ")";
        return false;
    }
    if (classify_predefined(basic, &cls) && op_takes(op.kind, cls.group)) return true;
    if (why) {
        *why = std::string(op.name) + " is not defined for " + type_name(&type);
        if (basic != &type) *why += " (made of " + type_name(basic) + ")";
        *why += std::string(": it takes ") + op_type_list(op.kind);
    }
    return false;
}

}  // namespace plexus::mpi
