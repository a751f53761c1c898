// Unit tests of btl_sm's addressing and self-description: relative pointers, the segment
// layout (every part on a cache line, inside the segment, limits), the checks a peer makes on a
// header it maps, and the business card.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "components/btl_sm/business_card.h"
#include "components/btl_sm/fastbox.h"
#include "components/btl_sm/frag_pool.h"
#include "components/btl_sm/segment_layout.h"
#include "components/btl_sm/sm_sdk.h"

using namespace plexus::btl_sm;

namespace {

TEST(RelPtr, RoundTrips) {
    const RelPtr cases[] = {{0, 0}, {1, 64}, {0xffffffffu, 0xffffffffu}, {7, 0x80000000u}, {0x12345, 0xabcdef}};
    for (RelPtr p : cases) EXPECT_EQ(decode(encode(p)), p);
}

TEST(RelPtr, SegmentIsTheHighWord) {
    EXPECT_EQ(encode(RelPtr{3, 5}), (uint64_t{3} << 32) | 5);
    EXPECT_NE(encode(RelPtr{1, 0}), encode(RelPtr{0, 1}));
}

LayoutRequest typical() {
    LayoutRequest r{};
    r.dir_cap = 72;
    r.fifo_cap = 1024;
    r.eager_count = 64;
    r.eager_capacity = 4096;
    r.max_count = 32;
    r.max_capacity = 32768;
    r.box_count = 32;
    r.box_ring = 32768;
    return r;
}

TEST(SegmentLayout, PartsAreAlignedOrderedAndInside) {
    SegmentHeader h{};
    std::string why;
    ASSERT_TRUE(compute_layout(typical(), 4096, &h, &why)) << why;
    EXPECT_EQ(h.size % 4096, 0u);
    const uint32_t offs[] = {h.dir_off, h.fifo_off, h.eager_off, h.max_off, h.box_off};
    for (uint32_t off : offs) EXPECT_EQ(off % kCacheLine, 0u);
    EXPECT_GE(h.dir_off, sizeof(SegmentHeader));
    EXPECT_GE(h.fifo_off, h.dir_off + 72 * sizeof(DirEntry));
    EXPECT_GE(h.eager_off, h.fifo_off + fifo_bytes(1024));
    EXPECT_GE(h.max_off, h.eager_off + 64ull * h.eager_stride);
    EXPECT_GE(h.box_off, h.max_off + 32ull * h.max_stride);
    EXPECT_LE(h.box_off + 32ull * h.box_stride, h.size);
    EXPECT_GE(h.eager_stride, sizeof(FragHeader) + 4096);
    EXPECT_GE(h.box_stride, box_bytes(32768));
    EXPECT_TRUE(check_header(h, h.size, h.owner_pid, &why)) << why;
}

TEST(SegmentLayout, AttachCounterHasItsOwnCacheLine) {
    EXPECT_EQ(offsetof(SegmentHeader, attached) % kCacheLine, 0u);
    EXPECT_EQ(offsetof(SegmentHeader, boxes_granted) % kCacheLine, 0u);
    EXPECT_NE(offsetof(SegmentHeader, attached) / kCacheLine, offsetof(SegmentHeader, boxes_granted) / kCacheLine);
}

TEST(SegmentLayout, RefusesFourGigabytes) {
    LayoutRequest r = typical();
    r.max_count = 4096;
    r.max_capacity = 16u << 20;  // 64 GiB of fragments
    SegmentHeader h{};
    std::string why;
    EXPECT_FALSE(compute_layout(r, 4096, &h, &why));
    EXPECT_NE(why.find("4 GiB"), std::string::npos) << why;
}

TEST(SegmentHeaderCheck, NamesWhatIsWrong) {
    SegmentHeader h{};
    std::string why;
    ASSERT_TRUE(compute_layout(typical(), 4096, &h, &why));
    h.owner_pid = 42;
    SegmentHeader bad = h;
    bad.magic ^= 1;
    EXPECT_FALSE(check_header(bad, h.size, 42, &why));
    EXPECT_NE(why.find("magic"), std::string::npos) << why;
    bad = h;
    bad.version = 99;
    EXPECT_FALSE(check_header(bad, h.size, 42, &why));
    EXPECT_NE(why.find("version 99"), std::string::npos) << why;
    EXPECT_FALSE(check_header(h, h.size + 4096, 42, &why));
    EXPECT_NE(why.find("mapped"), std::string::npos) << why;
    EXPECT_FALSE(check_header(h, h.size, 43, &why));
    EXPECT_NE(why.find("pid 42"), std::string::npos) << why;
    bad = h;
    bad.box_off = static_cast<uint32_t>(h.size - 64);
    EXPECT_FALSE(check_header(bad, h.size, 42, &why));
    EXPECT_NE(why.find("outside"), std::string::npos) << why;
    EXPECT_TRUE(check_header(h, h.size, 42, &why)) << why;
}

plexus_shm_desc_t descriptor(const char *name) {
    plexus_shm_desc_t d{};
    d.magic = PLEXUS_SHM_DESC_MAGIC;
    d.version = PLEXUS_SHM_DESC_VERSION;
    d.owner_pid = 777;
    d.owner_fd = 9;
    d.size = 123456;
    d.tag = 0xabcd;
    std::snprintf(d.name, sizeof d.name, "%s", name);
    return d;
}

TEST(BusinessCard, RoundTrips) {
    Card c{};
    ASSERT_TRUE(make_card("host/boot", descriptor("/plexus-0123-sm-abcd"), 777, 0x1000, 0x55, &c));
    Card back{};
    std::string why;
    ASSERT_TRUE(parse_card(&c, sizeof c, &back, &why)) << why;
    EXPECT_STREQ(back.node, "host/boot");
    EXPECT_EQ(std::memcmp(&back.segment, &c.segment, sizeof c.segment), 0);
    EXPECT_STREQ(back.segment.name, "/plexus-0123-sm-abcd");
    EXPECT_EQ(back.segment.size, 123456u);
    EXPECT_EQ(back.pid, 777);
    EXPECT_EQ(back.segment.owner_fd, 9);
    EXPECT_EQ(back.probe_addr, 0x1000u);
    EXPECT_EQ(back.probe_value, 0x55u);
}

TEST(BusinessCard, RejectsWhatIsNotACard) {
    Card c{};
    ASSERT_TRUE(make_card("n", descriptor("/s"), 1, 0, 0, &c));
    Card out{};
    std::string why;
    EXPECT_FALSE(parse_card(&c, sizeof c - 1, &out, &why));
    EXPECT_NE(why.find("expected"), std::string::npos) << why;
    Card bad = c;
    bad.magic = 0;
    EXPECT_FALSE(parse_card(&bad, sizeof bad, &out, &why));
    bad = c;
    std::memset(bad.node, 'x', sizeof bad.node);
    EXPECT_FALSE(parse_card(&bad, sizeof bad, &out, &why));
    EXPECT_NE(why.find("unterminated"), std::string::npos) << why;
    EXPECT_FALSE(make_card(std::string(500, 'n'), descriptor("/s"), 1, 0, 0, &c))
        << "an overlong node name must not fit";
}

TEST(BusinessCard, NodeIdentityHasHostAndBootId) {
    std::string why;
    const std::string id = node_identity(&why);
    ASSERT_FALSE(id.empty()) << why;
    const auto slash = id.find('/');
    ASSERT_NE(slash, std::string::npos);
    EXPECT_EQ(id.size() - slash - 1, 36u) << "boot_id is a UUID: " << id;
}

}  // namespace
