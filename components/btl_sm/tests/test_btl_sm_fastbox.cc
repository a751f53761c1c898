// Unit tests of btl_sm's fast boxes: records come out as written, the ring wraps with skip
// records, a full ring refuses until the reader publishes, stale bytes of earlier laps are never
// taken for a record, and a forked writer streams to a reader without loss or reordering.
#include <gtest/gtest.h>

#include <sched.h>

#include <cstring>
#include <string>
#include <vector>

#include "components/btl_sm/fastbox.h"
#include "tests/unit/btl_sm_test_support.h"

using namespace plexus::btl_sm;
using btl_sm_test::SharedMemory;

namespace {

constexpr size_t kRing = 4096;

class FastBox : public ::testing::Test {
protected:
    FastBox() : mem(box_bytes(kRing)) {
        box_format(mem.get(), kRing);
        writer = BoxWriter(mem.get(), kRing);
        reader = BoxReader(mem.get(), kRing);
    }
    // A message whose bytes depend on n, so a mix-up shows.
    static std::vector<uint8_t> pattern(uint32_t n, size_t len) {
        std::vector<uint8_t> v(len);
        for (size_t i = 0; i < len; ++i) v[i] = static_cast<uint8_t>(n * 31 + i * 7);
        return v;
    }
    bool write(uint8_t tag, const std::vector<uint8_t> &v) {
        const size_t half = v.size() / 2;  // two pieces, as hdr + payload
        return writer.write(tag, v.data(), half, v.data() + half, v.size() - half);
    }
    SharedMemory mem;
    BoxWriter writer;
    BoxReader reader;
};

TEST_F(FastBox, EmptyHasNothing) {
    BoxMessage m;
    EXPECT_FALSE(reader.next(&m));
}

TEST_F(FastBox, RecordComesOutAsWritten) {
    const std::string hdr = "header", payload = "payload bytes";
    ASSERT_TRUE(writer.write(0x12, hdr.data(), hdr.size(), payload.data(), payload.size()));
    BoxMessage m;
    ASSERT_TRUE(reader.next(&m));
    EXPECT_EQ(m.tag, 0x12);
    EXPECT_EQ(std::string(reinterpret_cast<const char *>(m.data), m.len), hdr + payload);
    EXPECT_FALSE(reader.next(&m));
}

TEST_F(FastBox, EmptyMessageAndLargestMessage) {
    ASSERT_TRUE(writer.write(1, nullptr, 0, nullptr, 0));
    const auto big = pattern(9, box_max_message(kRing));
    ASSERT_TRUE(write(2, big));
    BoxMessage m;
    ASSERT_TRUE(reader.next(&m));
    EXPECT_EQ(m.len, 0u);
    EXPECT_EQ(m.tag, 1);
    ASSERT_TRUE(reader.next(&m));
    ASSERT_EQ(m.len, big.size());
    EXPECT_EQ(0, std::memcmp(m.data, big.data(), big.size()));
}

TEST_F(FastBox, FullUntilTheReaderPublishes) {
    const auto msg = pattern(1, 1000);
    int written = 0;
    while (write(3, msg)) ++written;
    // As many records as fit beside the one spare slot the writer keeps for clearing.
    EXPECT_EQ(written, static_cast<int>((kRing - kBoxAlign) / box_record_bytes(1000)));
    BoxMessage m;
    ASSERT_TRUE(reader.next(&m));
    EXPECT_FALSE(write(3, msg)) << "space reused before the reader published it";
    while (reader.next(&m)) {
    }
    EXPECT_FALSE(write(3, msg)) << "space reused before the reader published it";
    reader.publish();
    EXPECT_TRUE(write(3, msg));
}

TEST_F(FastBox, WrapsWithSkipRecordsAndKeepsContent) {
    // Sizes that do not divide the ring, so records keep landing near the end and skipping.
    uint32_t sent = 0, received = 0;
    const size_t sizes[] = {40, 300, 700, 5, 1000, 120};
    for (int round = 0; round < 2000; ++round) {
        for (int burst = 0; burst < 3; ++burst) {
            const auto v = pattern(sent, sizes[sent % 6]);
            if (!write(static_cast<uint8_t>(sent), v)) break;
            ++sent;
        }
        BoxMessage m;
        while (reader.next(&m)) {
            const auto want = pattern(received, sizes[received % 6]);
            ASSERT_EQ(m.tag, static_cast<uint8_t>(received));
            ASSERT_EQ(m.len, want.size()) << "record " << received;
            ASSERT_EQ(0, std::memcmp(m.data, want.data(), want.size())) << "record " << received;
            ++received;
        }
        reader.publish();
    }
    EXPECT_EQ(sent, received);
    EXPECT_GT(sent, 5000u);  // many laps of the ring
    EXPECT_TRUE(writer.drained());
}

// Payload crafted so that every word of it where a record could start is exactly the header the
// reader would expect there one lap later. After the ring is reused, the reader must stop where
// the writer has not written yet instead of taking that old payload for a record.
TEST_F(FastBox, StalePayloadIsNeverARecord) {
    uint64_t pos = 0;  // mirrors the writer's position
    auto place = [&pos](size_t len) {
        const uint64_t need = box_record_bytes(len), off = pos % kRing;
        const uint64_t skip = off + need > kRing ? kRing - off : 0;
        const uint64_t at = pos + skip;
        pos += skip + need;
        return at;
    };
    auto evil_for = [](uint64_t record_pos, size_t len) {
        std::vector<uint8_t> v(len, 0);
        // Payload byte i lies at record_pos + 8 + i: record boundaries are at i = at - 8.
        for (size_t at = kBoxAlign; at - kBoxHeaderBytes + 8 <= len; at += kBoxAlign) {
            const uint64_t next_lap = record_pos + at + kRing;
            const uint64_t word = (static_cast<uint64_t>(box_stamp(next_lap)) << 32) | (8u << 8) | 0x55;
            std::memcpy(&v[at - kBoxHeaderBytes], &word, 8);
        }
        return v;
    };
    uint32_t rng = 12345;
    auto random_len = [&rng](size_t max) {
        rng = rng * 1103515245u + 12345u;
        return static_cast<size_t>((rng >> 8) % (max + 1));
    };
    BoxMessage m;
    int checked = 0;
    for (int round = 0; round < 3000; ++round) {
        for (;;) {  // fill the ring with evil records of varying sizes
            const uint64_t saved = pos;
            const size_t len = 8 * (8 + random_len(box_max_message(kRing) / 8 - 8));  // whole words
            const auto v = evil_for(place(len), len);
            if (!writer.write(0x66, v.data(), v.size(), nullptr, 0)) {
                pos = saved;
                break;
            }
        }
        while (reader.next(&m)) ASSERT_EQ(m.tag, 0x66);
        reader.publish();
        // One small record, then nothing: whatever lies after it is from an earlier lap.
        const size_t small = random_len(200);
        place(small);
        const std::vector<uint8_t> body(small, 0x11);
        ASSERT_TRUE(writer.write(0x77, body.data(), small, nullptr, 0));
        ASSERT_TRUE(reader.next(&m));
        ASSERT_EQ(m.tag, 0x77);
        ASSERT_FALSE(reader.next(&m)) << "round " << round << ": stale bytes read as a record";
        reader.publish();
        ++checked;
    }
    EXPECT_EQ(checked, 3000);
}

TEST_F(FastBox, ForkedWriterStreamsInOrder) {
    constexpr uint32_t kCount = 200000;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        BoxWriter w(mem.get(), kRing);  // the writer's own view, as a peer process has
        for (uint32_t i = 0; i < kCount; ++i) {
            const size_t len = 4 + i % 200;
            std::vector<uint8_t> v = pattern(i, len);
            std::memcpy(v.data(), &i, 4);
            while (!w.write(static_cast<uint8_t>(i), v.data(), len, nullptr, 0)) sched_yield();
        }
        _exit(0);
    }
    uint32_t next = 0;
    BoxMessage m;
    while (next < kCount) {
        int n = 0;
        while (reader.next(&m)) {
            uint32_t got;
            ASSERT_GE(m.len, 4u);
            std::memcpy(&got, m.data, 4);
            ASSERT_EQ(got, next);
            ASSERT_EQ(m.len, 4 + next % 200);
            ASSERT_EQ(m.tag, static_cast<uint8_t>(next));
            const auto want = pattern(next, m.len);
            ASSERT_EQ(0, std::memcmp(m.data + 4, want.data() + 4, m.len - 4));
            ++next;
            ++n;
        }
        reader.publish();
        if (!n) sched_yield();
    }
    EXPECT_TRUE(btl_sm_test::child_succeeded(pid));
}

}  // namespace
