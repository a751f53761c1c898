// Growing the request pool by one chunk; looking for requests on a communicator.
#include "mpi/request_pool.h"

namespace plexus::mpi {

Request *RequestPool::grow() {
    chunks_.push_back(std::make_unique<Request[]>(kChunk));
    Request *chunk = chunks_.back().get();
    for (size_t i = 0; i + 1 < kChunk; ++i) chunk[i].mpi_next = &chunk[i + 1];
    chunk[kChunk - 1].mpi_next = free_;
    return chunk;
}

bool RequestPool::refers_to(const Comm *comm) const {
    if (live_ == 0) return false;
    for (const auto &chunk : chunks_)
        for (size_t i = 0; i < kChunk; ++i)
            if (chunk[i].comm == comm && chunk[i].mpi_magic == Request::kLiveMagic) return true;
    return false;
}

}  // namespace plexus::mpi
