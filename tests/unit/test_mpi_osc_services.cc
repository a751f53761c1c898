// Unit tests of what the MPI layer gives osc modules beyond coll's services: datatype
// descriptions (every predefined type, nested derived types, subarrays, MPI-1 markers; the
// decoded type moves exactly the bytes the original does; garbage refused), operation numbers,
// where MPI_Alloc_mem memory lies (mem_range), byte ranges of typed data, and the type
// signature comparison of the MPI layer's checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "mpi/coll/coll_handles.h"
#include "mpi/datatype.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/subarray.h"
#include "mpi/error_report.h"
#include "mpi/osc/dtype_codec.h"
#include "mpi/osc/op_ids.h"
#include "mpi/osc/osc_services.h"
#include "mpi/osc/win_checks.h"
#include "mpi/shareable_memory.h"

using namespace plexus::mpi;

namespace {

std::vector<uint8_t> encode(const Datatype *t) {
    std::vector<uint8_t> b;
    osc::dtype_encode(*t, &b);
    return b;
}

// The bytes count items of t take from a patterned source buffer, packed.
std::vector<uint8_t> packed(const Datatype *t, int count, const std::vector<uint8_t> &src, ptrdiff_t origin) {
    std::vector<uint8_t> out(packed_bytes(t, count));
    pack(*t, src.data() + origin, count, out.data());
    return out;
}

// decode(encode(t)) has t's bounds and size and packs the same bytes from the same memory.
void expect_round_trip(Datatype *t, int count) {
    const std::vector<uint8_t> bytes = encode(t);
    Datatype *d = osc::dtype_decode(bytes.data(), bytes.size());
    ASSERT_NE(d, nullptr) << type_name(t);
    EXPECT_TRUE(datatype_valid(d));
    EXPECT_EQ(d->size, t->size);
    EXPECT_EQ(d->lb, t->lb);
    EXPECT_EQ(d->extent, t->extent);
    EXPECT_EQ(d->true_lb, t->true_lb);
    EXPECT_EQ(d->true_extent, t->true_extent);
    std::vector<uint8_t> src(1 << 16);
    std::iota(src.begin(), src.end(), uint8_t{0});
    const ptrdiff_t origin = 1 << 15;  // room for negative displacements
    EXPECT_EQ(packed(d, count, src, origin), packed(t, count, src, origin));
    EXPECT_EQ(encode(d), bytes);  // a decoded type describes itself alike
    osc::dtype_release(d);
}

TEST(OscDtypeCodec, EveryPredefinedTypeByNumber) {
    size_t n = 0;
    const PredefinedType *table = predefined_types(&n);
    ASSERT_GT(n, 30u);
    for (size_t i = 0; i < n; ++i) {
        const std::vector<uint8_t> b = encode(table[i].type);
        EXPECT_EQ(b.size(), 8u) << table[i].name;
        EXPECT_EQ(osc::dtype_decode(b.data(), b.size()), table[i].type) << table[i].name;
    }
    for (Datatype *marker : {MPI_LB, MPI_UB}) {
        const std::vector<uint8_t> b = encode(marker);
        EXPECT_EQ(osc::dtype_decode(b.data(), b.size()), marker);
    }
}

TEST(OscDtypeCodec, NestedDerivedTypes) {
    int bl[3] = {2, 1, 3};
    int disp[3] = {5, 0, -4};
    MPI_Aint adisp[3] = {0, 16, 40};
    Datatype *indexed = make_indexed(3, bl, disp, MPI_SHORT);
    Datatype *types[3] = {MPI_DOUBLE, indexed, MPI_CHAR};
    Datatype *st = make_struct(3, bl, adisp, types);
    Datatype *vec = make_vector(3, 2, -5, st);
    Datatype *resized = make_resized(vec, -8, 1000);
    Datatype *hv = make_hvector(2, 1, 2000, resized);
    Datatype *block = make_indexed_block(2, 2, disp, MPI_INT);
    Datatype *hidx = make_hindexed(3, bl, adisp, MPI_FLOAT);
    Datatype *contig = make_contiguous(4, hidx);
    Datatype *dup = make_dup(contig);
    for (Datatype *t : {indexed, st, vec, resized, hv, block, hidx, contig, dup}) commit(t);
    for (Datatype *t : {indexed, st, vec, resized, hv, block, hidx, contig, dup}) {
        SCOPED_TRACE(static_cast<int>(t->combiner));
        expect_round_trip(t, 1);
        expect_round_trip(t, 3);
    }
    for (Datatype *t : {dup, contig, hidx, block, hv, resized, vec, st, indexed}) free_handle(t);
}

TEST(OscDtypeCodec, SubarrayTravelsAsItsEquivalent) {
    const int sizes[3] = {6, 5, 4}, subsizes[3] = {2, 3, 2}, starts[3] = {1, 2, 1};
    Datatype *sub = make_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT);
    ASSERT_NE(sub, nullptr);
    commit(sub);
    expect_round_trip(sub, 1);
    free_handle(sub);
}

TEST(OscDtypeCodec, StructWithMarkers) {
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {-4, 0, 24};
    Datatype *types[3] = {MPI_LB, MPI_INT, MPI_UB};
    Datatype *t = make_struct(3, bl, disp, types);
    commit(t);
    expect_round_trip(t, 2);
    free_handle(t);
}

TEST(OscDtypeCodec, GarbageIsRefused) {
    Datatype *v = make_vector(4, 1, 3, MPI_DOUBLE);
    commit(v);
    const std::vector<uint8_t> good = encode(v);
    for (size_t cut = 0; cut < good.size(); ++cut)
        EXPECT_EQ(osc::dtype_decode(good.data(), cut), nullptr) << "cut at " << cut;
    std::vector<uint8_t> longer = good;
    longer.push_back(0);
    EXPECT_EQ(osc::dtype_decode(longer.data(), longer.size()), nullptr);
    std::vector<uint8_t> bad = good;
    const int32_t unknown = 999, huge = 1 << 30;
    std::memcpy(bad.data(), &unknown, 4);  // the combiner
    EXPECT_EQ(osc::dtype_decode(bad.data(), bad.size()), nullptr);
    bad = good;
    std::memcpy(bad.data() + 4, &huge, 4);  // the number of ints
    EXPECT_EQ(osc::dtype_decode(bad.data(), bad.size()), nullptr);
    const int32_t named[2] = {MPI_COMBINER_NAMED, 100000};
    EXPECT_EQ(osc::dtype_decode(reinterpret_cast<const uint8_t *>(named), sizeof named), nullptr);
    free_handle(v);
}

TEST(OscServices, EncodeSaysHowMuchRoomItNeeds) {
    const plexus_osc_services_t &s = osc::services();
    Datatype *v = make_vector(2, 1, 2, MPI_INT);
    commit(v);
    size_t len = 4;
    uint8_t small[4];
    EXPECT_EQ(s.dtype_encode(coll::handle(v), small, &len), PLEXUS_OSC_ERR_NO_MEM);
    std::vector<uint8_t> room(len);
    EXPECT_EQ(s.dtype_encode(coll::handle(v), room.data(), &len), PLEXUS_OSC_SUCCESS);
    EXPECT_EQ(room, encode(v));
    plexus_coll_dtype_t *decoded = nullptr;
    EXPECT_EQ(s.dtype_decode(room.data(), len, &decoded), PLEXUS_OSC_SUCCESS);
    EXPECT_EQ(coll::object(decoded)->size, v->size);
    s.dtype_release(decoded);
    EXPECT_EQ(s.dtype_decode(room.data(), len - 1, &decoded), MPI_ERR_TYPE);
    free_handle(v);
}

TEST(OscServices, OperationNumbers) {
    Op *ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                 MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE};
    std::vector<int> seen;
    for (Op *op : ops) {
        const int id = osc::op_id(op);
        ASSERT_GE(id, 0) << op->name;
        EXPECT_EQ(osc::op_by_id(id), op) << op->name;
        seen.push_back(id);
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
    Op user;
    user.predefined = false;
    EXPECT_EQ(osc::op_id(&user), -1);
    EXPECT_EQ(osc::op_id(MPI_OP_NULL), -1);
    EXPECT_EQ(osc::op_by_id(-1), nullptr);
    EXPECT_EQ(osc::op_by_id(1000), nullptr);
    EXPECT_EQ(osc::op_by_id(static_cast<int>(OpKind::User)), nullptr);
}

TEST(OscServices, MemRangeOfAllocMemMemory) {
    const plexus_osc_services_t &s = osc::services();
    auto *p = static_cast<uint8_t *>(s.alloc_mem(10000));
    ASSERT_NE(p, nullptr);
    plexus_osc_mem_range_t whole{sizeof whole, -1, 0, 0}, inner{sizeof inner, -1, 0, 0};
    ASSERT_EQ(s.mem_range(p, 10000, &whole), 1);
    EXPECT_GE(whole.fd, 0);
    EXPECT_EQ(whole.bytes, 10000u);
    ASSERT_EQ(s.mem_range(p + 100, 50, &inner), 1);
    EXPECT_EQ(inner.fd, whole.fd);
    EXPECT_EQ(inner.offset, whole.offset + 100);
    EXPECT_EQ(inner.bytes, 9900u);
    EXPECT_EQ(s.mem_range(p + 100, 9901, &inner), 0);  // runs past the allocation
    static char not_allocated[64];
    EXPECT_EQ(s.mem_range(not_allocated, 64, &inner), 0);
    plexus_osc_mem_range_t old{4, -1, 0, 0};  // a caller's struct too small
    EXPECT_EQ(s.mem_range(p, 1, &old), 0);
    EXPECT_EQ(s.free_mem(p), PLEXUS_OSC_SUCCESS);
    EXPECT_EQ(s.free_mem(p), MPI_ERR_BASE);
    EXPECT_EQ(s.mem_range(p, 1, &inner), 0);
}

TEST(OscServices, PackAndUnpackByteRanges) {
    const plexus_osc_services_t &s = osc::services();
    Datatype *v = make_vector(3, 2, 4, MPI_SHORT);  // 6 shorts out of 10
    commit(v);
    short src[10], back[10] = {};
    for (short i = 0; i < 10; ++i) src[i] = static_cast<short>(100 + i);
    uint8_t out[12];
    // In two pieces split inside an element: the same as one call.
    ASSERT_EQ(s.pack(src, 1, coll::handle(v), 0, out, 5), PLEXUS_OSC_SUCCESS);
    ASSERT_EQ(s.pack(src, 1, coll::handle(v), 5, out + 5, 7), PLEXUS_OSC_SUCCESS);
    const short want[6] = {100, 101, 104, 105, 108, 109};
    EXPECT_EQ(std::memcmp(out, want, sizeof want), 0);
    EXPECT_EQ(s.pack(src, 1, coll::handle(v), 6, out, 7), MPI_ERR_TRUNCATE);
    ASSERT_EQ(s.unpack(back, 1, coll::handle(v), 0, out, 12), PLEXUS_OSC_SUCCESS);
    const short want_back[10] = {100, 101, 0, 0, 104, 105, 0, 0, 108, 109};
    EXPECT_EQ(std::memcmp(back, want_back, sizeof back), 0);
    free_handle(v);
}

TEST(OscChecks, TypeSignatures) {
    size_t where = 0;
    Datatype *c4 = make_contiguous(4, MPI_INT);
    Datatype *v = make_vector(2, 2, 5, MPI_INT);
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    Datatype *id[2] = {MPI_INT, MPI_DOUBLE}, *di[2] = {MPI_DOUBLE, MPI_INT};
    Datatype *s_id = make_struct(2, bl, disp, id), *s_di = make_struct(2, bl, disp, di);
    for (Datatype *t : {c4, v, s_id, s_di}) commit(t);
    EXPECT_TRUE(osc::same_signature(8, *MPI_INT, 2, *c4, &where));
    Datatype *vv = make_contiguous(2, v);
    EXPECT_TRUE(osc::same_signature(2, *v, 1, *vv, &where));
    free_handle(vv);
    EXPECT_TRUE(osc::same_signature(1, *c4, 1, *v, &where));
    EXPECT_FALSE(osc::same_signature(4, *MPI_INT, 4, *MPI_FLOAT, &where));
    EXPECT_EQ(where, 0u);
    EXPECT_TRUE(osc::same_signature(3, *s_id, 3, *s_id, &where));
    EXPECT_FALSE(osc::same_signature(2, *s_id, 2, *s_di, &where));
    // int double int double | int int ...: they part at element 1.
    int bl2[1] = {2};
    MPI_Aint d2[1] = {0};
    Datatype *ii[1] = {MPI_INT};
    Datatype *two = make_struct(1, bl2, d2, ii);
    commit(two);
    EXPECT_FALSE(osc::same_signature(2, *s_id, 2, *two, &where));
    EXPECT_EQ(where, 1u);
    EXPECT_FALSE(osc::same_signature(3, *MPI_INT, 4, *MPI_INT, &where));
    for (Datatype *t : {c4, v, s_id, s_di, two}) free_handle(t);
}

}  // namespace
