// The intra-communicator functions: the module's TwoLevel serves them through shm_ops, which
// declines (the next component serves) what the engine does not take.
#include "shm_functions.h"
#include "shm_module.h"
#include "shm_ops.h"

namespace plexus::coll_shm_inter {

int intra_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::barrier(m.env, *m.two);
}

int intra_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,
                int root, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::bcast(m.env, *m.two, buf, count, type, root);
}

int intra_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::reduce(m.env, *m.two, sendbuf, recvbuf, count, type, op, root);
}

int intra_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::reduce(m.env, *m.two, sendbuf, recvbuf, count, type, op, -1);
}

int intra_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                 plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                 plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::gather(m.env, *m.two, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       root);
}

int intra_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                  plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::scatter(m.env, *m.two, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                        root);
}

int intra_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                    plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *) {
    Module &m = module_of(self);
    return ops::gather(m.env, *m.two, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                       -1);
}

}  // namespace plexus::coll_shm_inter
