// One memory mapping, unmapped when it goes.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace plexus::runtime {

class Mapping {
public:
    Mapping() = default;
    Mapping(void *addr, size_t len) : addr_(addr), len_(len) {}
    ~Mapping() { reset(); }
    Mapping(Mapping &&other) noexcept
        : addr_(std::exchange(other.addr_, nullptr)), len_(std::exchange(other.len_, 0)) {}
    Mapping &operator=(Mapping &&other) noexcept {
        if (this != &other) {
            reset();
            addr_ = std::exchange(other.addr_, nullptr);
            len_ = std::exchange(other.len_, 0);
        }
        return *this;
    }
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;

    uint8_t *base() const { return static_cast<uint8_t *>(addr_); }
    size_t size() const { return len_; }
    explicit operator bool() const { return addr_ != nullptr; }
    void reset() {
        if (addr_) ::munmap(addr_, len_);
        addr_ = nullptr;
        len_ = 0;
    }

private:
    void *addr_ = nullptr;
    size_t len_ = 0;
};

}  // namespace plexus::runtime
