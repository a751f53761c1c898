#include "segment_layout.h"

#include "fastbox.h"
#include "frag_pool.h"

namespace plexus::btl_sm {
namespace {

// Appends a part of bytes at the next cache line; its offset goes to *off.
void place(uint64_t *cursor, uint64_t bytes, uint32_t *off) {
    *cursor = align_up(*cursor, kCacheLine);
    *off = static_cast<uint32_t>(*cursor);
    *cursor += bytes;
}

bool inside(uint64_t off, uint64_t bytes, uint64_t size) { return off <= size && bytes <= size - off; }

}  // namespace

bool compute_layout(const LayoutRequest &req, size_t page_size, SegmentHeader *out, std::string *why) {
    SegmentHeader h{};
    h.magic = kSegmentMagic;
    h.version = kSegmentVersion;
    h.dir_cap = req.dir_cap;
    h.fifo_cap = req.fifo_cap;
    h.eager_count = req.eager_count;
    h.eager_stride = frag_stride(req.eager_capacity);
    h.max_count = req.max_count;
    h.max_stride = frag_stride(req.max_capacity);
    h.box_count = req.box_count;
    h.box_ring = req.box_ring;
    h.box_stride = static_cast<uint32_t>(align_up(box_bytes(req.box_ring), kCacheLine));

    // 64-bit arithmetic throughout, so that an oversized request is caught, not wrapped.
    uint64_t cursor = sizeof(SegmentHeader);
    uint32_t unused = 0;
    place(&cursor, uint64_t{req.dir_cap} * sizeof(DirEntry), &h.dir_off);
    place(&cursor, fifo_bytes(req.fifo_cap), &h.fifo_off);
    place(&cursor, uint64_t{req.eager_count} * h.eager_stride, &h.eager_off);
    place(&cursor, uint64_t{req.max_count} * h.max_stride, &h.max_off);
    place(&cursor, uint64_t{req.box_count} * h.box_stride, &h.box_off);
    place(&cursor, 0, &unused);
    const uint64_t size = align_up(cursor, page_size);
    if (size >= (uint64_t{1} << 32)) {
        if (why) *why = "the segment would need " + std::to_string(size) + " bytes (at most 4 GiB)";
        return false;
    }
    h.size = size;
    *out = h;
    return true;
}

bool check_header(const SegmentHeader &h, uint64_t mapped_size, int32_t expected_pid, std::string *why) {
    auto bad = [why](const std::string &what) {
        if (why) *why = what;
        return false;
    };
    if (h.magic != kSegmentMagic) return bad("not a Plexus sm segment (bad magic)");
    if (h.version != kSegmentVersion)
        return bad("segment version " + std::to_string(h.version) + ", this build speaks " +
                   std::to_string(kSegmentVersion));
    if (h.size != mapped_size)
        return bad("segment says " + std::to_string(h.size) + " bytes, " + std::to_string(mapped_size) + " mapped");
    if (h.owner_pid != expected_pid)
        return bad("segment belongs to pid " + std::to_string(h.owner_pid) + ", expected " + std::to_string(expected_pid));
    if (!is_power_of_two(h.fifo_cap) || !is_power_of_two(h.box_ring))
        return bad("FIFO or fast-box size not a power of two");
    if (h.eager_stride < frag_stride(0) || h.max_stride < frag_stride(0) ||
        h.box_stride < box_bytes(h.box_ring))
        return bad("fragment or fast-box stride too small");
    const bool fits = inside(h.dir_off, uint64_t{h.dir_cap} * sizeof(DirEntry), h.size) &&
                      inside(h.fifo_off, fifo_bytes(h.fifo_cap), h.size) &&
                      inside(h.eager_off, uint64_t{h.eager_count} * h.eager_stride, h.size) &&
                      inside(h.max_off, uint64_t{h.max_count} * h.max_stride, h.size) &&
                      inside(h.box_off, uint64_t{h.box_count} * h.box_stride, h.size);
    return fits ? true : bad("a part of the segment lies outside its size");
}

}  // namespace plexus::btl_sm
