// Growing the request pool by one chunk.
#include "mpi/request_pool.h"

namespace plexus::mpi {

Request *RequestPool::grow() {
    chunks_.push_back(std::make_unique<Request[]>(kChunk));
    Request *chunk = chunks_.back().get();
    for (size_t i = 0; i + 1 < kChunk; ++i) chunk[i].mpi_next = &chunk[i + 1];
    chunk[kChunk - 1].mpi_next = free_;
    return chunk;
}

}  // namespace plexus::mpi
