// The reduction kernels: inout[i] = in[i] op inout[i] over n elements of one C representation,
// one tight loop per (operation, representation), picked once per call from a table.
#pragma once

#include <cstddef>

#include "mpi/op/op_types.h"

namespace plexus::mpi {

// in and inout must not overlap; both are arrays of the representation's C type (the pair types:
// arrays of the C struct { value; int index; }, padding included).
using Kernel = void (*)(const void *in, void *inout, size_t n);

// The kernel of a predefined operation for a representation; null where MPI defines none
// (and for MPI_REPLACE and user operations, which need no kernel). Compiled for the widest
// instruction set this CPU runs.
Kernel op_kernel(OpKind kind, Rep rep);

// The instruction sets the kernels are compiled for: on x86-64 the baseline (SSE2), AVX2 and
// AVX-512 (F, BW, DQ, VL); elsewhere the baseline only.
enum class KernelIsa : uint8_t { Baseline, Avx2, Avx512 };
inline constexpr size_t kKernelIsaCount = 3;
// Whether this build and CPU run a set's kernels (the baseline always).
bool kernel_isa_runs(KernelIsa isa);
// The kernel of one set, so that tests can compare the sets; only for sets kernel_isa_runs accepts.
Kernel op_kernel_for(OpKind kind, Rep rep, KernelIsa isa);

// The C struct of a MINLOC/MAXLOC pair type (the layout of datatype_predefined.cc's pairs).
template <class V>
struct LocPair {
    V value;
    int index;
};

}  // namespace plexus::mpi
