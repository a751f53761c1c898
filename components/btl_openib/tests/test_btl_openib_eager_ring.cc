// Eager RDMA rings with memcpy standing in for the RDMA write: messages at the end of their slot,
// the tail flag written last, slots of earlier laps never mistaken for new ones, and the sender
// held back when the receiver has not returned slots.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "components/btl_openib/eager_ring.h"

using namespace plexus::btl_openib;

namespace {

// A receiver's ring and the sender writing into it the way post_ring lays a write out.
struct Channel {
    static constexpr uint32_t kSlots = 4;
    size_t slot_bytes = ring_slot_bytes(100);
    std::vector<uint8_t> mem = std::vector<uint8_t>(kSlots * slot_bytes);
    RingSender tx{kSlots, slot_bytes};
    RingReceiver rx{mem.data(), kSlots, slot_bytes};

    // The bytes one write carries: payload then footer, placed at the slot's end.
    std::vector<uint8_t> format(const std::string &payload, uint8_t tag, uint32_t *slot) {
        RingFooter f{};
        tx.claim(slot, &f.stamp);
        f.len = static_cast<uint32_t>(payload.size());
        f.tag = tag;
        f.credits = 3;
        std::vector<uint8_t> w(ring_write_bytes(payload.size()));
        std::memcpy(w.data(), payload.data(), payload.size());
        RingSender::format(w.data(), payload.size(), f);
        return w;
    }
    void land(uint32_t slot, const std::vector<uint8_t> &w, size_t bytes) {
        std::memcpy(mem.data() + slot * slot_bytes + ring_write_offset(slot_bytes, w.size() - kRingFooterBytes), w.data(),
                    bytes);
    }
    bool write(const std::string &payload, uint8_t tag) {
        if (!tx.can_write(payload.size())) return false;
        uint32_t slot = 0;
        const std::vector<uint8_t> w = format(payload, tag, &slot);
        land(slot, w, w.size());
        return true;
    }
    std::string read(uint8_t *tag = nullptr) {
        RingMessage m;
        if (!rx.next(&m)) return "<none>";
        std::string s(reinterpret_cast<const char *>(m.data), m.footer.len);
        if (tag) *tag = m.footer.tag;
        rx.release();
        return s;
    }
};

TEST(OpenibEagerRing, SlotsAreWholeLinesWithRoomForTheFooter) {
    EXPECT_EQ(ring_slot_bytes(48), 64u);
    EXPECT_EQ(ring_slot_bytes(49), 128u);
    EXPECT_EQ(ring_slot_bytes(12 * 1024), 12 * 1024 + 64u);
    EXPECT_EQ(ring_write_offset(128, 10), 128u - 16 - 10);
}

TEST(OpenibEagerRing, MessagesArriveInOrderByteForByteAcrossManyLaps) {
    Channel c;
    for (int i = 0; i < 50; ++i) {
        const std::string msg = "message " + std::to_string(i) + std::string(size_t(i) % 90, char('a' + i % 26));
        ASSERT_TRUE(c.write(msg, static_cast<uint8_t>(i)));
        uint8_t tag = 0;
        EXPECT_EQ(c.read(&tag), msg);
        EXPECT_EQ(tag, i);
        c.tx.returned(c.rx.take_to_return());
    }
    EXPECT_EQ(c.read(), "<none>");
    EXPECT_EQ(c.rx.read(), 50u);
}

TEST(OpenibEagerRing, TheSenderWaitsForSlotsTheReceiverReturned) {
    Channel c;
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(c.write("m" + std::to_string(i), 1));
    EXPECT_FALSE(c.write("fifth", 1)) << "every slot is unread";
    EXPECT_EQ(c.read(), "m0");
    EXPECT_FALSE(c.write("fifth", 1)) << "read, but not returned yet";
    c.tx.returned(c.rx.take_to_return());
    ASSERT_TRUE(c.write("fifth", 1));
    EXPECT_EQ(c.read(), "m1");
    EXPECT_EQ(c.read(), "m2");
    EXPECT_EQ(c.read(), "m3");
    EXPECT_EQ(c.read(), "fifth");
}

TEST(OpenibEagerRing, APayloadWithoutItsFlagIsNotSeenUntilTheFlagLands) {
    Channel c;
    uint32_t slot = 0;
    const std::vector<uint8_t> w = c.format("partial", 7, &slot);
    c.land(slot, w, w.size() - sizeof(uint32_t));  // everything but the tail flag
    EXPECT_EQ(c.read(), "<none>");
    c.land(slot, w, w.size());
    EXPECT_EQ(c.read(), "partial");
}

TEST(OpenibEagerRing, ASlotOfTheLastLapIsNotTakenForANewMessage) {
    Channel c;
    for (uint32_t i = 0; i < Channel::kSlots; ++i) {
        ASSERT_TRUE(c.write("old" + std::to_string(i), 1));
        EXPECT_EQ(c.read(), "old" + std::to_string(i));
    }
    c.tx.returned(c.rx.take_to_return());
    // The next lap's slot 0 still holds "old0" with the first lap's stamp.
    EXPECT_EQ(c.read(), "<none>");
    ASSERT_TRUE(c.write("new0", 1));
    EXPECT_EQ(c.read(), "new0");
}

TEST(OpenibEagerRing, LimitsAndEmptyMessages) {
    Channel c;
    EXPECT_EQ(c.tx.max_payload(), c.slot_bytes - kRingFooterBytes);
    EXPECT_FALSE(c.tx.can_write(c.tx.max_payload() + 1));
    const std::string big(c.tx.max_payload(), 'x');
    ASSERT_TRUE(c.write(big, 2));
    EXPECT_EQ(c.read(), big);
    ASSERT_TRUE(c.write("", 3));
    uint8_t tag = 0;
    EXPECT_EQ(c.read(&tag), "");
    EXPECT_EQ(tag, 3);
}

TEST(OpenibEagerRing, AFooterClaimingMoreThanTheSlotIsReportedNotDelivered) {
    Channel c;
    uint32_t slot = 0;
    std::vector<uint8_t> w = c.format("x", 1, &slot);
    RingFooter f;
    std::memcpy(&f, w.data() + 1, sizeof f);
    f.len = 100000;
    std::memcpy(w.data() + 1, &f, sizeof f);
    c.land(slot, w, w.size());
    RingMessage m;
    bool corrupt = false;
    EXPECT_FALSE(c.rx.next(&m, &corrupt));
    EXPECT_TRUE(corrupt);
}

}  // namespace
