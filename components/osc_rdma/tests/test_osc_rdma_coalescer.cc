// Unit tests of the buffered protocol's coalescing (rdma_coalescer.h): N small puts make
// ceil(N * record / buffer) messages, the records come back byte for byte, large operations are
// cut into fragments of whole units that reassemble exactly.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "components/osc_rdma/rdma_coalescer.h"

using namespace plexus::osc_rdma;

namespace {

struct Sent {
    std::vector<std::vector<uint8_t>> messages;
    uint32_t records = 0;
};

SinkFn into(Sent *s) {
    return [s](std::vector<uint8_t> &msg, uint32_t n) {
        s->messages.push_back(msg);
        s->records += n;
        return 0;
    };
}

auto from(const std::vector<uint8_t> &src) {
    return [&src](size_t off, size_t len, uint8_t *dst) {
        std::memcpy(dst, src.data() + off, len);
        return 0;
    };
}

RecordHeader put_of(uint64_t disp, uint64_t bytes) {
    RecordHeader r;
    r.kind = RecordKind::kPut;
    r.disp = disp;
    r.total = bytes;
    r.target_count = uint32_t(bytes);
    return r;
}

// Every record of every message, in order.
std::vector<RecordView> records_of(const Sent &s) {
    std::vector<RecordView> out;
    for (const auto &m : s.messages) {
        MsgHeader h;
        EXPECT_TRUE(decode_header(m.data(), m.size(), &h));
        EXPECT_EQ(h.kind, MsgKind::kData);
        RecordReader rr(m.data() + kMsgHeaderBytes, m.size() - kMsgHeaderBytes);
        RecordView v;
        uint32_t n = 0;
        while (rr.next(&v)) {
            out.push_back(v);
            ++n;
        }
        EXPECT_FALSE(rr.bad());
        EXPECT_EQ(n, h.count);
    }
    return out;
}

}  // namespace

TEST(OscRdmaCoalescer, SmallPutsFillBuffersAndReturnByteForByte) {
    for (size_t payload : {size_t(1), size_t(8), size_t(40), size_t(100)}) {
        const size_t record = kShortRecordBytes + payload;  // whole puts of plain bytes: the short form
        const size_t capacity = kMsgHeaderBytes + 10 * record + record / 2;  // 10 records and a half
        for (size_t n : {size_t(1), size_t(10), size_t(11), size_t(1000)}) {
            Sent s;
            Coalescer c(capacity, into(&s));
            std::vector<std::vector<uint8_t>> data(n);
            for (size_t i = 0; i < n; ++i) {
                data[i].resize(payload);
                for (size_t b = 0; b < payload; ++b) data[i][b] = uint8_t(i * 31 + b);
                ASSERT_EQ(c.add(put_of(i * payload, payload), {}, 1, from(data[i])), 0);
            }
            ASSERT_EQ(c.flush(), 0);
            const size_t per_message = (capacity - kMsgHeaderBytes) / record;
            EXPECT_EQ(s.messages.size(), (n + per_message - 1) / per_message) << payload << " " << n;
            EXPECT_EQ(s.records, n);
            const auto recs = records_of(s);
            ASSERT_EQ(recs.size(), n);
            for (size_t i = 0; i < n; ++i) {
                EXPECT_EQ(recs[i].h.disp, i * payload);
                EXPECT_EQ(recs[i].h.offset, 0u);
                ASSERT_EQ(recs[i].h.len, payload);
                EXPECT_EQ(std::memcmp(recs[i].payload, data[i].data(), payload), 0) << i;
            }
            for (const auto &m : s.messages) EXPECT_LE(m.size(), capacity);
        }
    }
}

TEST(OscRdmaCoalescer, ManyPutsTakeTwoOrdersOfMagnitudeFewerMessages) {
    Sent s;
    Coalescer c(8192, into(&s));
    const std::vector<uint8_t> one(8, 0xab);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(c.add(put_of(uint64_t(i) * 8, 8), {}, 1, from(one)), 0);
    ASSERT_EQ(c.flush(), 0);
    const size_t per = (8192 - kMsgHeaderBytes) / (kShortRecordBytes + 8);
    EXPECT_EQ(s.messages.size(), (1000 + per - 1) / per);
    EXPECT_LE(s.messages.size(), 3u);
}

TEST(OscRdmaCoalescer, LargeOperationsAreFragmentedInWholeUnitsAndReassemble) {
    const size_t capacity = 1000;
    std::vector<uint8_t> big(10000);
    std::iota(big.begin(), big.end(), uint8_t(7));
    const std::vector<uint8_t> type(12, 0x5a);  // a target type's description travels in every fragment
    for (size_t unit : {size_t(1), size_t(8), size_t(24)}) {
        Sent s;
        Coalescer c(capacity, into(&s));
        const std::vector<uint8_t> small(3, 1);
        ASSERT_EQ(c.add(put_of(0, 3), {}, 1, from(small)), 0);  // a partly used buffer first
        RecordHeader r = put_of(64, big.size() / unit * unit);
        ASSERT_EQ(c.add(r, type, unit, from(big)), 0);
        ASSERT_EQ(c.flush(), 0);
        const auto recs = records_of(s);
        ASSERT_GE(recs.size(), 3u);
        std::vector<uint8_t> back(size_t(r.total), 0);
        uint64_t expect_offset = 0;
        for (size_t i = 1; i < recs.size(); ++i) {
            const RecordView &v = recs[i];
            EXPECT_EQ(v.h.total, r.total);
            EXPECT_EQ(v.h.offset, expect_offset);
            EXPECT_EQ(v.h.offset % unit, 0u);
            EXPECT_EQ(v.h.type_len, type.size());
            EXPECT_EQ(std::memcmp(v.type, type.data(), type.size()), 0);
            std::memcpy(back.data() + v.h.offset, v.payload, v.h.len);
            expect_offset += v.h.len;
        }
        EXPECT_EQ(expect_offset, r.total);
        EXPECT_EQ(std::memcmp(back.data(), big.data(), back.size()), 0) << unit;
        for (const auto &m : s.messages) EXPECT_LE(m.size(), capacity);
    }
}

TEST(OscRdmaCoalescer, GetRequestsCarryNoPayload) {
    Sent s;
    Coalescer c(200, into(&s));
    RecordHeader r;
    r.kind = RecordKind::kGetRequest;
    r.total = 1 << 20;  // a large get is one request: the target answers in fragments
    r.get_id = 9;
    ASSERT_EQ(c.add(r, {}, 1, nullptr), 0);
    ASSERT_EQ(c.flush(), 0);
    const auto recs = records_of(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].h.kind, RecordKind::kGetRequest);
    EXPECT_EQ(recs[0].h.len, 0u);
    EXPECT_EQ(recs[0].h.total, uint64_t(1) << 20);
    EXPECT_EQ(recs[0].h.get_id, 9u);
}

TEST(OscRdmaCoalescer, AUnitLargerThanAMessageIsRefusedAndNothingIsSent) {
    Sent s;
    Coalescer c(Coalescer::min_capacity() + 10, into(&s));
    std::vector<uint8_t> data(64, 1);
    EXPECT_EQ(c.add(put_of(0, 64), {}, 64, from(data)), 52);  // PLEXUS_OSC_ERR_UNSUPPORTED
    EXPECT_TRUE(c.empty());
    EXPECT_EQ(c.flush(), 0);
    EXPECT_TRUE(s.messages.empty());
}

TEST(OscRdmaCoalescer, FlushOfNothingSendsNothingAndSinkErrorsComeBack) {
    int calls = 0;
    Coalescer c(500, [&](std::vector<uint8_t> &, uint32_t) { return ++calls, 16; });
    EXPECT_EQ(c.flush(), 0);
    EXPECT_EQ(calls, 0);
    std::vector<uint8_t> d(8, 2);
    ASSERT_EQ(c.add(put_of(0, 8), {}, 1, from(d)), 0);
    EXPECT_EQ(c.flush(), 16);
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(c.empty());
}
