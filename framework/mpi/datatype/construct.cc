// The datatype constructors (see construct.h): the arguments are kept for MPI_Type_get_contents,
// and size, bounds, alignment, element count and the uniform basic type are worked out from the
// copies of the old types each constructor places.
#include "mpi/datatype/construct.h"

#include <algorithm>

#include "mpi/attributes/attribute_store.h"
#include "mpi/datatype/derived_type.h"
#include "mpi/datatype/loop_build.h"

namespace plexus::mpi {
namespace {

// Accumulates copies of types at displacements into the fields of a new type.
class Layout {
public:
    // copies of c at displacements between lo and hi (the lowest and the highest placement).
    void add(const Datatype &c, size_t copies, ptrdiff_t lo, ptrdiff_t hi) {
        if (copies == 0) return;
        if (c.marker) {  // MPI_LB at the lowest placement or MPI_UB at the highest, nothing else
            if (c.sticky_lb) merge(sticky_lb_, lo, true);
            else merge(sticky_ub_, hi, false);
            return;
        }
        size_ += copies * c.size;
        elements_ += copies * elements_per_item(c);
        align_ = std::max(align_, c.align);
        note_basic(c);
        merge(c.sticky_lb ? sticky_lb_ : lb_, lo + c.lb, true);
        merge(c.sticky_ub ? sticky_ub_ : ub_, hi + c.lb + c.extent, false);
        if (c.size > 0) {
            merge(true_lb_, lo + c.true_lb, true);
            merge(true_ub_, hi + c.true_lb + c.true_extent, false);
        }
    }

    // count copies of c at disp + i * stride.
    void add_run(const Datatype &c, size_t count, ptrdiff_t disp, ptrdiff_t stride) {
        if (count == 0) return;
        const ptrdiff_t last = ptrdiff_t(count - 1) * stride;
        add(c, count, disp + std::min<ptrdiff_t>(0, last), disp + std::max<ptrdiff_t>(0, last));
    }

    // Writes the result into t; pad: round the extent up to the alignment (struct, MPI-2.2 epsilon).
    void finish(Datatype &t, bool pad) const {
        t.size = size_;
        t.align = align_;
        t.sticky_lb = sticky_lb_.set;
        t.sticky_ub = sticky_ub_.set;
        t.lb = sticky_lb_.set ? sticky_lb_.v : lb_.set ? lb_.v : 0;
        // No upper bound at all (only MPI_LB markers): the extent is 0.
        const ptrdiff_t ub = sticky_ub_.set ? sticky_ub_.v : ub_.set ? ub_.v : t.lb;
        t.extent = ub - t.lb;
        if (pad && !sticky_ub_.set && t.extent > 0 && t.extent % ptrdiff_t(align_) != 0)
            t.extent += ptrdiff_t(align_) - t.extent % ptrdiff_t(align_);
        t.true_lb = true_lb_.set ? true_lb_.v : 0;
        t.true_extent = true_ub_.set ? true_ub_.v - t.true_lb : 0;
        t.derived->elements = elements_;
        t.derived->basic = mixed_ ? nullptr : basic_;
    }

private:
    struct Bound {
        bool set = false;
        ptrdiff_t v = 0;
    };
    static void merge(Bound &b, ptrdiff_t v, bool lower) {
        b.v = !b.set ? v : lower ? std::min(b.v, v) : std::max(b.v, v);
        b.set = true;
    }
    void note_basic(const Datatype &c) {
        if (c.size == 0) return;
        const Datatype *b = c.predefined ? &c : c.derived->basic;
        if (!b || (basic_ && basic_ != b)) mixed_ = true;
        basic_ = b;
    }

    size_t size_ = 0, elements_ = 0, align_ = 1;
    Bound lb_, ub_, sticky_lb_, sticky_ub_, true_lb_, true_ub_;
    const Datatype *basic_ = nullptr;
    bool mixed_ = false;
};

Datatype *new_type(Combiner combiner, std::vector<int> ints, std::vector<MPI_Aint> aints,
                   std::vector<Datatype *> types) {
    auto *t = new Datatype;
    t->predefined = false;
    t->committed = false;
    t->contiguous = false;
    t->combiner = combiner;
    t->nblocks = 0;
    t->derived = new DerivedType;
    t->derived->ints = std::move(ints);
    t->derived->aints = std::move(aints);
    for (Datatype *c : types) datatype_retain(c);
    t->derived->types = std::move(types);
    return t;
}

void destroy(Datatype *t) {
    for (Datatype *c : t->derived->types) datatype_release(c);
    if (t->derived->equivalent) datatype_release(t->derived->equivalent);
    delete t->derived;
    delete t->attributes;  // emptied by MPI_Type_free's delete callbacks; a type made inside has none
    t->magic = 0;
    delete t;
}

void destroy_if_unused(Datatype *t) {
    if (t->derived->user_refs == 0 && t->derived->internal_refs == 0) destroy(t);
}

std::vector<int> with_count(int count, const int *values, int n) {
    std::vector<int> v{count};
    v.insert(v.end(), values, values + n);
    return v;
}

}  // namespace

Datatype *make_contiguous(int count, Datatype *old) {
    Datatype *t = new_type(Combiner::Contiguous, {count}, {}, {old});
    Layout l;
    l.add_run(*old, size_t(count), 0, old->extent);
    l.finish(*t, false);
    return t;
}

namespace {

// count blocks of blocklength old items, block starts stride bytes apart.
void vector_layout(Datatype *t, int count, int blocklength, ptrdiff_t stride, const Datatype &old) {
    Layout l;
    if (count > 0 && blocklength > 0) {
        const ptrdiff_t last_block = ptrdiff_t(count - 1) * stride;
        const ptrdiff_t last_in_block = ptrdiff_t(blocklength - 1) * old.extent;
        l.add(old, size_t(count) * size_t(blocklength),
              std::min<ptrdiff_t>(0, last_block) + std::min<ptrdiff_t>(0, last_in_block),
              std::max<ptrdiff_t>(0, last_block) + std::max<ptrdiff_t>(0, last_in_block));
    }
    l.finish(*t, false);
}

}  // namespace

Datatype *make_vector(int count, int blocklength, int stride, Datatype *old) {
    Datatype *t = new_type(Combiner::Vector, {count, blocklength, stride}, {}, {old});
    vector_layout(t, count, blocklength, ptrdiff_t(stride) * old->extent, *old);
    return t;
}

Datatype *make_hvector(int count, int blocklength, MPI_Aint stride, Datatype *old) {
    Datatype *t = new_type(Combiner::Hvector, {count, blocklength}, {stride}, {old});
    vector_layout(t, count, blocklength, stride, *old);
    return t;
}

Datatype *make_indexed(int count, const int blocklengths[], const int displacements[], Datatype *old) {
    std::vector<int> ints = with_count(count, blocklengths, count);
    ints.insert(ints.end(), displacements, displacements + count);
    Datatype *t = new_type(Combiner::Indexed, std::move(ints), {}, {old});
    Layout l;
    for (int i = 0; i < count; ++i)
        l.add_run(*old, size_t(blocklengths[i]), ptrdiff_t(displacements[i]) * old->extent, old->extent);
    l.finish(*t, false);
    return t;
}

Datatype *make_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype *old) {
    Datatype *t = new_type(Combiner::Hindexed, with_count(count, blocklengths, count),
                           std::vector<MPI_Aint>(displacements, displacements + count), {old});
    Layout l;
    for (int i = 0; i < count; ++i) l.add_run(*old, size_t(blocklengths[i]), displacements[i], old->extent);
    l.finish(*t, false);
    return t;
}

Datatype *make_indexed_block(int count, int blocklength, const int displacements[], Datatype *old) {
    std::vector<int> ints{count, blocklength};
    ints.insert(ints.end(), displacements, displacements + count);
    Datatype *t = new_type(Combiner::IndexedBlock, std::move(ints), {}, {old});
    Layout l;
    for (int i = 0; i < count; ++i)
        l.add_run(*old, size_t(blocklength), ptrdiff_t(displacements[i]) * old->extent, old->extent);
    l.finish(*t, false);
    return t;
}

Datatype *make_struct(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype *const types[]) {
    Datatype *t = new_type(Combiner::Struct, with_count(count, blocklengths, count),
                           std::vector<MPI_Aint>(displacements, displacements + count),
                           std::vector<Datatype *>(types, types + count));
    Layout l;
    for (int i = 0; i < count; ++i) l.add_run(*types[i], size_t(blocklengths[i]), displacements[i], types[i]->extent);
    l.finish(*t, true);
    return t;
}

Datatype *make_resized(Datatype *old, MPI_Aint lb, MPI_Aint extent) {
    Datatype *t = new_type(Combiner::Resized, {}, {lb, extent}, {old});
    Layout l;
    l.add(*old, 1, 0, 0);
    l.finish(*t, false);
    t->lb = lb;
    t->extent = extent;
    t->sticky_lb = t->sticky_ub = true;
    return t;
}

Datatype *make_dup(Datatype *old) {
    Datatype *t = new_type(Combiner::Dup, {}, {}, {old});
    Layout l;
    l.add(*old, 1, 0, 0);
    l.finish(*t, false);
    // The same type map: markers, padding and all, exactly as the old type has them.
    t->lb = old->lb;
    t->extent = old->extent;
    t->sticky_lb = old->sticky_lb;
    t->sticky_ub = old->sticky_ub;
    if (old->committed) commit(t);
    return t;
}

Datatype *make_equivalent(Combiner combiner, std::vector<int> ints, Datatype *old, Datatype *equivalent) {
    Datatype *t = new_type(combiner, std::move(ints), {}, {old});
    datatype_retain(equivalent);
    free_handle(equivalent);  // the new type's reference is now the only one
    t->derived->equivalent = equivalent;
    Layout l;
    l.add(*equivalent, 1, 0, 0);
    l.finish(*t, false);
    t->lb = equivalent->lb;
    t->extent = equivalent->extent;
    t->sticky_lb = equivalent->sticky_lb;
    t->sticky_ub = equivalent->sticky_ub;
    return t;
}

void commit(Datatype *t) {
    if (t->committed) return;
    t->derived->program = std::make_unique<LoopProgram>(build_program(*t));
    t->contiguous = t->size == size_t(t->extent) && program_is_contiguous(*t->derived->program, t->lb);
    t->committed = true;
}

void free_handle(Datatype *t) {
    if (--t->derived->user_refs == 0) t->magic = Datatype::kFreedMagic;
    destroy_if_unused(t);
}

void add_handle(Datatype *t) {
    if (t->predefined) return;
    ++t->derived->user_refs;
    t->magic = Datatype::kMagic;
}

void datatype_retain(Datatype *t) {
    if (t->derived) ++t->derived->internal_refs;
}

void datatype_release(Datatype *t) {
    if (!t->derived) return;
    --t->derived->internal_refs;
    destroy_if_unused(t);
}

}  // namespace plexus::mpi
