// The datatype description of dtype_codec.h. One node per type:
//   int32 combiner; Named: int32 number (an index of predefined_types(), or kLb / kUb);
//   otherwise int32 ints, aints, types; the ints (int32), the aints (int64), then the nodes
//   of its types in order.
#include "mpi/osc/dtype_codec.h"

#include <cstring>

#include "mpi/datatype/construct.h"
#include "mpi/datatype/derived_type.h"

namespace plexus::mpi::osc {
namespace {

// MPI_LB and MPI_UB mark bounds in MPI-1 structs and are not in predefined_types().
constexpr int32_t kLb = -1;
constexpr int32_t kUb = -2;
// A bound on nesting, so that bytes from a confused peer cannot exhaust the stack.
constexpr int kMaxDepth = 64;

template <class T>
void put(std::vector<uint8_t> *out, T v) {
    const size_t at = out->size();
    out->resize(at + sizeof v);
    std::memcpy(out->data() + at, &v, sizeof v);
}

int32_t predefined_number(const Datatype &type) {
    if (&type == MPI_LB) return kLb;
    if (&type == MPI_UB) return kUb;
    size_t n = 0;
    const PredefinedType *table = predefined_types(&n);
    for (size_t i = 0; i < n; ++i)
        if (table[i].type == &type) return static_cast<int32_t>(i);
    return kLb - 1;  // not reached: every predefined type is in the table or a marker
}

struct Reader {
    const uint8_t *p;
    const uint8_t *end;
    template <class T>
    bool get(T *v) {
        if (static_cast<size_t>(end - p) < sizeof *v) return false;
        std::memcpy(v, p, sizeof *v);
        p += sizeof *v;
        return true;
    }
};

Datatype *predefined_by_number(int32_t number) {
    if (number == kLb) return MPI_LB;
    if (number == kUb) return MPI_UB;
    size_t n = 0;
    const PredefinedType *table = predefined_types(&n);
    return number >= 0 && static_cast<size_t>(number) < n ? table[number].type : nullptr;
}

// The argument counts a combiner's constructor takes: ints, aints, types; false when they do
// not fit (count is ints[0] where there is one).
bool shape_fits(Combiner c, const std::vector<int> &ints, size_t naints, size_t ntypes) {
    const size_t ni = ints.size();
    const long n = ni ? ints[0] : -1;
    if (ni && n < 0) return false;
    const size_t count = n < 0 ? 0 : static_cast<size_t>(n);
    switch (c) {
        case Combiner::Dup: return ni == 0 && naints == 0 && ntypes == 1;
        case Combiner::Contiguous: return ni == 1 && naints == 0 && ntypes == 1;
        case Combiner::Vector: return ni == 3 && naints == 0 && ntypes == 1;
        case Combiner::Hvector: return ni == 2 && naints == 1 && ntypes == 1;
        case Combiner::Indexed: return ni == 1 + 2 * count && naints == 0 && ntypes == 1;
        case Combiner::Hindexed: return ni == 1 + count && naints == count && ntypes == 1;
        case Combiner::IndexedBlock: return ni == 2 + count && naints == 0 && ntypes == 1;
        case Combiner::Struct: return ni == 1 + count && naints == count && ntypes == count;
        case Combiner::Resized: return ni == 0 && naints == 2 && ntypes == 1;
        default: return false;
    }
}

bool lengths_valid(const int *lengths, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (lengths[i] < 0) return false;
    return true;
}

Datatype *build(Combiner c, const std::vector<int> &ints, const std::vector<MPI_Aint> &aints,
                const std::vector<Datatype *> &types) {
    const int n = ints.empty() ? 0 : ints[0];
    switch (c) {
        case Combiner::Dup: return make_dup(types[0]);
        case Combiner::Contiguous: return make_contiguous(n, types[0]);
        case Combiner::Vector: return ints[1] < 0 ? nullptr : make_vector(n, ints[1], ints[2], types[0]);
        case Combiner::Hvector: return ints[1] < 0 ? nullptr : make_hvector(n, ints[1], aints[0], types[0]);
        case Combiner::Indexed:
            return lengths_valid(&ints[1], n) ? make_indexed(n, &ints[1], &ints[1 + n], types[0]) : nullptr;
        case Combiner::Hindexed:
            return lengths_valid(&ints[1], n) ? make_hindexed(n, &ints[1], aints.data(), types[0]) : nullptr;
        case Combiner::IndexedBlock: return ints[1] < 0 ? nullptr : make_indexed_block(n, ints[1], &ints[2], types[0]);
        case Combiner::Struct:
            return lengths_valid(&ints[1], n) ? make_struct(n, &ints[1], aints.data(), types.data()) : nullptr;
        case Combiner::Resized: return make_resized(types[0], aints[0], aints[1]);
        default: return nullptr;
    }
}

Datatype *decode_node(Reader &r, int depth);

// The children of a node, decoded; on failure the ones made are released and false returned.
bool decode_children(Reader &r, int depth, int32_t count, std::vector<Datatype *> *types) {
    for (int32_t i = 0; i < count; ++i) {
        Datatype *t = decode_node(r, depth + 1);
        if (!t) {
            for (Datatype *made : *types) dtype_release(made);
            types->clear();
            return false;
        }
        types->push_back(t);
    }
    return true;
}

Datatype *decode_node(Reader &r, int depth) {
    int32_t combiner = 0;
    if (depth > kMaxDepth || !r.get(&combiner)) return nullptr;
    if (combiner == MPI_COMBINER_NAMED) {
        int32_t number = 0;
        return r.get(&number) ? predefined_by_number(number) : nullptr;
    }
    int32_t ni = 0, na = 0, nt = 0;
    if (!r.get(&ni) || !r.get(&na) || !r.get(&nt) || ni < 0 || na < 0 || nt < 0) return nullptr;
    // Each argument takes at least 4 bytes: counts beyond what is left are garbage, not a reason
    // to allocate.
    const size_t left = static_cast<size_t>(r.end - r.p);
    if (static_cast<size_t>(ni) + na + nt > left / 4) return nullptr;
    std::vector<int> ints(static_cast<size_t>(ni));
    std::vector<MPI_Aint> aints(static_cast<size_t>(na));
    for (int &v : ints)
        if (int32_t x; r.get(&x)) v = x; else return nullptr;
    for (MPI_Aint &v : aints)
        if (int64_t x; r.get(&x)) v = static_cast<MPI_Aint>(x); else return nullptr;
    const auto c = static_cast<Combiner>(combiner);
    if (!shape_fits(c, ints, aints.size(), static_cast<size_t>(nt))) return nullptr;
    std::vector<Datatype *> types;
    if (!decode_children(r, depth, nt, &types)) return nullptr;
    Datatype *t = build(c, ints, aints, types);
    // The new type holds its own references to its children: the decoded handles go.
    for (Datatype *child : types) dtype_release(child);
    return t;
}

}  // namespace

void dtype_encode(const Datatype &type, std::vector<uint8_t> *out) {
    if (type.predefined) {
        put<int32_t>(out, MPI_COMBINER_NAMED);
        put<int32_t>(out, predefined_number(type));
        return;
    }
    const DerivedType &d = *type.derived;
    if (d.equivalent) return dtype_encode(*d.equivalent, out);  // subarray, darray
    put<int32_t>(out, static_cast<int32_t>(type.combiner));
    put<int32_t>(out, static_cast<int32_t>(d.ints.size()));
    put<int32_t>(out, static_cast<int32_t>(d.aints.size()));
    put<int32_t>(out, static_cast<int32_t>(d.types.size()));
    for (int v : d.ints) put<int32_t>(out, v);
    for (MPI_Aint v : d.aints) put<int64_t>(out, static_cast<int64_t>(v));
    for (const Datatype *child : d.types) dtype_encode(*child, out);
}

Datatype *dtype_decode(const uint8_t *data, size_t len) {
    Reader r{data, data + len};
    Datatype *t = decode_node(r, 0);
    if (!t) return nullptr;
    if (r.p != r.end) {
        dtype_release(t);
        return nullptr;
    }
    commit(t);
    return t;
}

void dtype_release(Datatype *type) {
    if (type && !type->predefined) free_handle(type);
}

}  // namespace plexus::mpi::osc
