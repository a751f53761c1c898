// The PML with derived datatypes (typed requests): every byte of vector, indexed and struct
// layouts arrives where it belongs, through the BTL's send_pack and per-fragment unpacking, at
// packed sizes around the eager limit and the fragment size; typed to contiguous and back; a
// truncated typed receive; a stalled receiver; and a BTL 1.1 module without send_pack, for
// which the PML packs a whole copy as before. The expected bytes come from each layout's runs
// written out by hand here, not from the datatype engine.
#include <gtest/gtest.h>

#include <vector>

#include "mpi/datatype.h"
#include "mpi/datatype/construct.h"
#include "pml_pair.h"

using namespace plexus;
using namespace plexus::mpi;
using plexus::test::FakeBtl;
using plexus::test::PmlPair;

namespace {

// One byte run of an item: at disp bytes from the item's start.
struct Run {
    size_t disp, len;
};

// A committed derived type and its layout as written from its definition.
struct Shape {
    const char *name;
    Datatype *type;
    std::vector<Run> runs;  // in type-map order
    size_t extent;

    size_t size() const {
        size_t n = 0;
        for (const Run &r : runs) n += r.len;
        return n;
    }
    // Buffer bytes count items span.
    size_t span(size_t count) const { return count * extent; }
    // Whether byte at of a buffer of count items is data.
    std::vector<bool> mask(size_t count) const {
        std::vector<bool> m(span(count), false);
        for (size_t i = 0; i < count; ++i)
            for (const Run &r : runs)
                for (size_t k = 0; k < r.len; ++k) m[i * extent + r.disp + k] = true;
        return m;
    }
    // The packed stream of count items of buf.
    std::vector<uint8_t> packed(const std::vector<uint8_t> &buf, size_t count) const {
        std::vector<uint8_t> out;
        for (size_t i = 0; i < count; ++i)
            for (const Run &r : runs) out.insert(out.end(), buf.begin() + i * extent + r.disp, buf.begin() + i * extent + r.disp + r.len);
        return out;
    }
};

Shape vector_shape() {
    // 2 blocks of 3 doubles, stride 5 doubles: 48 bytes of data in an extent of 64.
    Datatype *t = make_vector(2, 3, 5, MPI_DOUBLE);
    commit(t);
    return {"vector", t, {{0, 24}, {40, 24}}, 64};
}

Shape indexed_shape() {
    // ints: 1 at 0, 4 at 3, 2 at 9: 28 bytes in an extent of 44.
    const int lens[] = {1, 4, 2}, disps[] = {0, 3, 9};
    Datatype *t = make_indexed(3, lens, disps, MPI_INT);
    commit(t);
    return {"indexed", t, {{0, 4}, {12, 16}, {36, 8}}, 44};
}

Shape struct_shape() {
    // {char at 0, 2 doubles at 8, int at 28}: 21 bytes, so fragments split items anywhere; the
    // extent is padded to the doubles' alignment: 32.
    const int lens[] = {1, 2, 1};
    const MPI_Aint disps[] = {0, 8, 28};
    Datatype *const types[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    Datatype *t = make_struct(3, lens, disps, types);
    commit(t);
    return {"struct", t, {{0, 1}, {8, 16}, {28, 4}}, 32};
}

std::vector<uint8_t> filled(size_t n, int seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 37 + seed * 11 + (i >> 9) + 1);
    return v;
}

constexpr uint8_t kUntouched = 0xEE;

class PmlTyped : public PmlPair {
protected:
    void SetUp() override {
        PmlPair::SetUp();
        shapes = {vector_shape(), indexed_shape(), struct_shape()};
    }
    void TearDown() override {
        PmlPair::TearDown();
        for (Shape &s : shapes) free_handle(s.type);
    }

    static void make_typed(Request &r, const Shape &s, size_t count) {
        r.typed = true;
        r.datatype = s.type;
        r.count = static_cast<int>(count);
        r.bytes = count * s.type->size;
    }

    // Item counts whose packed sizes fall just below, at and just above each boundary of the fake
    // BTL (256-byte eager limit: 240 bytes after the match header; 1024-byte fragments: 1008
    // bytes after the fragment header), and a message of many fragments.
    static std::vector<size_t> counts(const Shape &s) {
        std::vector<size_t> out;
        for (size_t edge : {size_t(240), size_t(1008), size_t(2016), size_t(3024), size_t(40000)}) {
            const size_t c = edge / s.size();
            for (size_t k : {c - 1, c, c + 1})
                if (k > 0 && (out.empty() || out.back() < k)) out.push_back(k);
        }
        return out;
    }

    // count items of s from a to b, typed on both sides; the receive posted first or last.
    void typed_both(const Shape &s, size_t count, bool post_first) {
        SCOPED_TRACE(std::string(s.name) + " x " + std::to_string(count) + (post_first ? " posted" : " unexpected"));
        const auto src = filled(s.span(count), static_cast<int>(count));
        std::vector<uint8_t> dst(s.span(count) + 1, kUntouched);
        Request rr = recv_req(b, dst.data(), 0, 0, 9);
        Request sr = send_req(a, src.data(), 0, 9);
        make_typed(rr, s, count);
        make_typed(sr, s, count);
        run(rr, sr, post_first);
        EXPECT_EQ(rr.status.error, MPI_SUCCESS);
        EXPECT_EQ(rr.status.bytes, count * s.size());
        const auto m = s.mask(count);
        size_t wrong = 0, touched = 0;
        for (size_t i = 0; i < m.size(); ++i) {
            if (m[i]) wrong += dst[i] != src[i];
            else touched += dst[i] != kUntouched;
        }
        EXPECT_EQ(wrong, 0u) << "data bytes that differ";
        EXPECT_EQ(touched, 0u) << "bytes outside the type map were written";
        EXPECT_EQ(dst.back(), kUntouched) << "wrote past the buffer";
    }

    std::vector<Shape> shapes;
};

TEST_F(PmlTyped, EveryShapeArrivesByteForByteAroundEagerAndFragmentBoundaries) {
    for (const Shape &s : shapes) {
        for (size_t count : counts(s)) {
            typed_both(s, count, true);
            typed_both(s, count, false);
        }
    }
    EXPECT_GT(a.btl.packed_sends, 0) << "typed payloads should be packed by send_pack";
    EXPECT_GT(a.btl.pack_calls, a.btl.packed_sends) << "the fake packs in two pieces";
    EXPECT_EQ(b.btl.gets, 0) << "a typed send has no one address to get from";
}

TEST_F(PmlTyped, TypedToContiguousAndBackCarryThePackedStream) {
    for (const Shape &s : shapes) {
        for (size_t count : {size_t(3), size_t(40), size_t(2000)}) {
            SCOPED_TRACE(std::string(s.name) + " x " + std::to_string(count));
            const auto src = filled(s.span(count), 5);
            const auto stream = s.packed(src, count);
            // typed -> bytes
            std::vector<uint8_t> got(stream.size() + 1, kUntouched);
            Request rr = recv_req(b, got.data(), stream.size(), 0, 3);
            Request sr = send_req(a, src.data(), 0, 3);
            make_typed(sr, s, count);
            run(rr, sr, true);
            EXPECT_TRUE(std::equal(stream.begin(), stream.end(), got.begin()));
            EXPECT_EQ(got.back(), kUntouched);
            // bytes -> typed
            std::vector<uint8_t> dst(s.span(count), kUntouched);
            Request rr2 = recv_req(b, dst.data(), 0, 0, 4);
            Request sr2 = send_req(a, stream.data(), stream.size(), 4);
            make_typed(rr2, s, count);
            run(rr2, sr2, count % 2 == 0);
            EXPECT_EQ(s.packed(dst, count), stream);
            const auto m = s.mask(count);
            for (size_t i = 0; i < m.size(); ++i) {
                if (!m[i]) {
                    ASSERT_EQ(dst[i], kUntouched) << "byte " << i << " is outside the type map";
                }
            }
        }
    }
}

TEST_F(PmlTyped, ATruncatedTypedReceiveFillsOnlyWhatFits) {
    const Shape &s = shapes[2];  // struct: 21 bytes per item
    for (size_t sent : {size_t(10), size_t(500)}) {
        const size_t fits = sent / 2;
        const auto src = filled(s.span(sent), 1);
        std::vector<uint8_t> dst(s.span(sent), kUntouched);
        Request rr = recv_req(b, dst.data(), 0, 0, 6);
        Request sr = send_req(a, src.data(), 0, 6);
        make_typed(rr, s, fits);
        make_typed(sr, s, sent);
        run(rr, sr, true);
        EXPECT_EQ(rr.status.error, MPI_ERR_TRUNCATE);
        EXPECT_EQ(s.packed(dst, fits), s.packed(src, fits));
        for (size_t i = s.span(fits); i < dst.size(); ++i) ASSERT_EQ(dst[i], kUntouched) << "byte " << i;
    }
}

// A BTL 1.1 module (no send_pack in its struct): the PML packs the whole message once, and a
// large one is offered for get like any buffer, as before BTL 1.2.
TEST_F(PmlTyped, ABtl11ModuleWithoutSendPackStillCarriesTypedData) {
    FakeBtl old_a(256, 1024, 4096), old_b(256, 1024, 4096);
    old_a.as_btl_1_1();
    old_b.as_btl_1_1();
    build(old_a, old_b);
    for (const Shape &s : shapes) {
        for (size_t count : counts(s)) {
            typed_both(s, count, true);
            typed_both(s, count, false);
        }
        // A contiguous receiver of a large typed message gets the packed copy.
        const size_t count = 8000 / s.size();
        const auto src = filled(s.span(count), 2);
        const auto stream = s.packed(src, count);
        std::vector<uint8_t> got(stream.size(), 0);
        Request rr = recv_req(b, got.data(), got.size(), 0, 2);
        Request sr = send_req(a, src.data(), 0, 2);
        make_typed(sr, s, count);
        run(rr, sr, true);
        EXPECT_EQ(got, stream);
    }
    EXPECT_EQ(a.btl.packed_sends, 0);
    EXPECT_GT(b.btl.gets, 0) << "the whole packed copy is offered for get";
}

// A receiver that stops draining fragments: the rest of a typed send is packed once and put.
TEST_F(PmlTyped, AStalledReceiverGetsTheRestOfATypedSendByPut) {
    build(FakeBtl(256, 1024, 1 << 20), FakeBtl(256, 1024, 1 << 20));
    const Shape &s = shapes[0];
    const size_t count = 100000 / s.size();
    const auto src = filled(s.span(count), 4);
    const auto stream = s.packed(src, count);
    std::vector<uint8_t> got(stream.size(), 0);
    Request rr = recv_req(b, got.data(), got.size(), 0, 5);
    Request sr = send_req(a, src.data(), 0, 5);
    make_typed(sr, s, count);
    a.btl.refuse_after = 1 + 10;  // the RTS and 10 fragments
    ASSERT_EQ(b.pml->start_recv(&rr), MPI_SUCCESS);
    ASSERT_EQ(a.pml->start_send(&sr), MPI_SUCCESS);
    for (int i = 0; i < 50; ++i) engine->poll();
    ASSERT_FALSE(sr.complete);
    a.btl.module.rdma_threshold = 4096;  // the BTL saw its fragments stay away
    engine->poll();
    EXPECT_TRUE(sr.complete) << "the rest went by put";
    EXPECT_GT(a.btl.puts, 0);
    a.btl.refuse_after = 0;
    wait(rr);
    EXPECT_EQ(got, stream);
}

}  // namespace
