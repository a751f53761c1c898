// Unit tests of the wire format (rdma_wire.h): headers and records come back as written, and
// messages that lie about their lengths are refused rather than read past their end.
#include <gtest/gtest.h>

#include <cstring>

#include "components/osc_rdma/rdma_wire.h"

using namespace plexus::osc_rdma;

TEST(OscRdmaWire, HeaderRoundTrip) {
    MsgHeader h;
    h.win = 0xdeadbeef;
    h.kind = MsgKind::kUnlock;
    h.epoch = EpochTag::kLock;
    h.lock_type = 2;
    h.count = 123456;
    h.aux = 77;
    uint8_t buf[kMsgHeaderBytes];
    encode_header(h, buf);
    MsgHeader back;
    ASSERT_TRUE(decode_header(buf, sizeof buf, &back));
    EXPECT_EQ(back.win, h.win);
    EXPECT_EQ(back.kind, h.kind);
    EXPECT_EQ(back.epoch, h.epoch);
    EXPECT_EQ(back.lock_type, 2);
    EXPECT_EQ(back.count, 123456u);
    EXPECT_EQ(back.aux, 77u);
}

TEST(OscRdmaWire, BadHeadersAreRefused) {
    uint8_t buf[kMsgHeaderBytes] = {};
    MsgHeader h;
    EXPECT_FALSE(decode_header(buf, sizeof buf - 1, &h));  // short
    EXPECT_FALSE(decode_header(buf, sizeof buf, &h));      // kind 0
    buf[4] = 99;
    EXPECT_FALSE(decode_header(buf, sizeof buf, &h));
    buf[4] = uint8_t(MsgKind::kData);
    buf[5] = 9;  // no such epoch
    EXPECT_FALSE(decode_header(buf, sizeof buf, &h));
    buf[5] = 0;
    EXPECT_TRUE(decode_header(buf, sizeof buf, &h));
}

TEST(OscRdmaWire, RecordsRoundTripAndOverrunsAreRefused) {
    RecordHeader r;
    r.kind = RecordKind::kAccumulate;
    r.type_len = 3;
    r.op = 5;
    r.target_count = 10;
    r.disp = 4096;
    r.offset = 16;
    r.len = 8;
    r.total = 80;
    std::vector<uint8_t> buf(record_bytes(r));
    encode_record(r, buf.data());
    const uint8_t type[3] = {1, 2, 3};
    const uint8_t payload[8] = {9, 8, 7, 6, 5, 4, 3, 2};
    std::memcpy(buf.data() + kRecordHeaderBytes, type, 3);
    std::memcpy(buf.data() + kRecordHeaderBytes + 3, payload, 8);

    RecordReader rr(buf.data(), buf.size());
    RecordView v;
    ASSERT_TRUE(rr.next(&v));
    EXPECT_EQ(v.h.kind, RecordKind::kAccumulate);
    EXPECT_EQ(v.h.op, 5);
    EXPECT_EQ(v.h.target_count, 10u);
    EXPECT_EQ(v.h.disp, 4096u);
    EXPECT_EQ(v.h.offset, 16u);
    EXPECT_EQ(v.h.total, 80u);
    EXPECT_EQ(std::memcmp(v.type, type, 3), 0);
    EXPECT_EQ(std::memcmp(v.payload, payload, 8), 0);
    EXPECT_FALSE(rr.next(&v));
    EXPECT_FALSE(rr.bad());

    RecordReader cut(buf.data(), buf.size() - 1);  // the payload is one byte short
    EXPECT_FALSE(cut.next(&v));
    EXPECT_TRUE(cut.bad());

    r.offset = 76;  // [76, 84) lies beyond the operation's 80 bytes
    encode_record(r, buf.data());
    RecordReader beyond(buf.data(), buf.size());
    EXPECT_FALSE(beyond.next(&v));
    EXPECT_TRUE(beyond.bad());
}
