// A process topology as MPI-2.2 chapter 7 keeps it on a communicator: a Cartesian grid, a graph
// given whole (MPI_Graph_create) or a distributed graph (each process knows only its own edges).
// Immutable once made, so that MPI_Comm_dup shares it instead of copying it.
#pragma once

#include <memory>
#include <vector>

namespace plexus::mpi::topo {

enum class Kind { Cart, Graph, DistGraph };

struct Topology {
    Kind kind;
    // Cartesian: the extent and periodicity of each dimension (ranks are the row-major index of
    // the coordinates, the last dimension varying fastest).
    std::vector<int> dims;
    std::vector<int> periods;  // 0 or 1
    // Graph: MPI_Graph_create's index (cumulative degrees) and edges, for every node.
    std::vector<int> index;
    std::vector<int> edges;
    // Distributed graph: this process's neighbours and, when weighted, the edges' weights.
    std::vector<int> sources, source_weights;
    std::vector<int> destinations, destination_weights;
    bool weighted = false;

    int ndims() const { return static_cast<int>(dims.size()); }
    int nnodes() const { return static_cast<int>(index.size()); }
};

using TopologyRef = std::shared_ptr<const Topology>;

}  // namespace plexus::mpi::topo
