// Counting basic elements (MPI_Get_elements) and finding the single basic type of a type: both
// walk the constructor tree in type-map order, whole child runs by multiplication.
#include <algorithm>

#include "mpi/datatype/derived_type.h"

namespace plexus::mpi {

std::vector<ChildRun> child_runs(const Datatype &t) {
    const DerivedType &d = *t.derived;
    const auto &ints = d.ints;
    std::vector<ChildRun> runs;
    switch (t.combiner) {
        case Combiner::Contiguous:
            runs.push_back({size_t(ints[0]), d.types[0]});
            break;
        case Combiner::Vector:
        case Combiner::Hvector:
        case Combiner::IndexedBlock:
            runs.push_back({size_t(ints[0]) * size_t(ints[1]), d.types[0]});
            break;
        case Combiner::Indexed:
        case Combiner::Hindexed:
            for (int i = 0; i < ints[0]; ++i) runs.push_back({size_t(ints[size_t(1 + i)]), d.types[0]});
            break;
        case Combiner::Struct:
            for (int i = 0; i < ints[0]; ++i) runs.push_back({size_t(ints[size_t(1 + i)]), d.types[size_t(i)]});
            break;
        case Combiner::Dup:
        case Combiner::Resized:
            runs.push_back({1, d.types[0]});
            break;
        case Combiner::Subarray:
        case Combiner::Darray:
            runs.push_back({1, d.equivalent});
            break;
        case Combiner::Named:
            break;
    }
    return runs;
}

size_t elements_per_item(const Datatype &t) { return t.derived ? t.derived->elements : size_t(t.nblocks); }

namespace {

// Elements in the first bytes (< t.size) of one item; false when bytes end inside a basic element.
bool elements_in_part(const Datatype &t, size_t bytes, size_t *out) {
    size_t elements = 0;
    if (!t.derived) {
        for (int b = 0; b < t.nblocks && bytes >= t.blocks[b].length && bytes > 0; ++b) {
            bytes -= t.blocks[b].length;
            ++elements;
        }
        *out = elements;
        return bytes == 0;
    }
    for (const ChildRun &run : child_runs(t)) {
        const Datatype &c = *run.type;
        if (c.size == 0) continue;
        const size_t whole = std::min(run.repeat, bytes / c.size);
        elements += whole * elements_per_item(c);
        bytes -= whole * c.size;
        if (whole < run.repeat) {
            size_t more = 0;
            const bool exact = bytes == 0 || elements_in_part(c, bytes, &more);
            *out = elements + more;
            return exact;
        }
    }
    *out = elements;
    return bytes == 0;
}

}  // namespace

int elements_of(const Datatype &t, size_t bytes) {
    if (t.size == 0) return 0;
    size_t elements = bytes / t.size * elements_per_item(t);
    if (const size_t rest = bytes % t.size) {
        size_t more = 0;
        if (!elements_in_part(t, rest, &more)) return MPI_UNDEFINED;
        elements += more;
    }
    return static_cast<int>(elements);
}

int count_of(const Datatype &t, size_t bytes) {
    if (t.size == 0) return 0;
    return bytes % t.size == 0 ? static_cast<int>(bytes / t.size) : MPI_UNDEFINED;
}

bool uniform_basic_derived(const Datatype &t, const Datatype **basic, size_t *per_item) {
    const Datatype *b = t.derived->basic;
    if (!b || t.size == 0) return false;
    *basic = b;
    *per_item = t.size / b->size;
    return true;
}

}  // namespace plexus::mpi
