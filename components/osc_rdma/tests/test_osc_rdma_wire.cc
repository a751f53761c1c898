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

TEST(OscRdmaWire, FlagsTravelInTheHeader) {
    MsgHeader h;
    h.win = 3;
    h.kind = MsgKind::kData;
    h.flags = kFlagFenceEnd;
    h.aux = 1234;
    uint8_t buf[kMsgHeaderBytes];
    encode_header(h, buf);
    MsgHeader back;
    ASSERT_TRUE(decode_header(buf, sizeof buf, &back));
    EXPECT_EQ(back.flags, kFlagFenceEnd);
    EXPECT_EQ(back.aux, 1234u);
    h.kind = MsgKind::kFenceQuery;
    encode_header(h, buf);
    ASSERT_TRUE(decode_header(buf, sizeof buf, &back));
    EXPECT_EQ(back.kind, MsgKind::kFenceQuery);
}

// A whole put of plain bytes takes the 16-byte header; it reads back as the put it was, and a
// short record claiming more bytes than the message holds is refused.
TEST(OscRdmaWire, ShortPutRecordsRoundTrip) {
    RecordHeader r;
    r.kind = RecordKind::kPut;
    r.disp = 1u << 20;
    r.len = r.total = 8;
    ASSERT_TRUE(is_short(r));
    EXPECT_EQ(record_bytes(r), kShortRecordBytes + 8);
    std::vector<uint8_t> msg(record_bytes(r) * 2);
    encode_record(r, msg.data());
    const uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    std::memcpy(msg.data() + kShortRecordBytes, payload, 8);
    r.disp = 24;
    encode_record(r, msg.data() + record_bytes(r));
    std::memcpy(msg.data() + record_bytes(r) + kShortRecordBytes, payload, 8);
    RecordReader reader(msg.data(), msg.size());
    RecordView v;
    ASSERT_TRUE(reader.next(&v));
    EXPECT_EQ(v.h.kind, RecordKind::kPut);
    EXPECT_EQ(v.h.disp, uint64_t(1) << 20);
    EXPECT_EQ(v.h.len, 8u);
    EXPECT_EQ(v.h.offset, 0u);
    EXPECT_EQ(v.h.type_len, 0u);
    EXPECT_EQ(std::memcmp(v.payload, payload, 8), 0);
    ASSERT_TRUE(reader.next(&v));
    EXPECT_EQ(v.h.disp, 24u);
    EXPECT_FALSE(reader.next(&v));
    EXPECT_FALSE(reader.bad());
    RecordReader cut(msg.data(), kShortRecordBytes + 7);
    EXPECT_FALSE(cut.next(&v));
    EXPECT_TRUE(cut.bad());
    RecordHeader typed = r;
    typed.type_len = 4;  // a type, a fragment, an accumulate: the full header
    EXPECT_FALSE(is_short(typed));
    RecordHeader frag = r;
    frag.total = 16;
    EXPECT_FALSE(is_short(frag));
}
