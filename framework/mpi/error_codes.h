// MPI error classes and the error codes that carry a message. A code is (sequence << 7) | class:
// MPI_Error_class is a mask, and MPI_Error_string finds the message in a bounded table of the
// latest codes (older codes still give their class and say that the detail was dropped).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "mpi.h"

namespace plexus::mpi {

constexpr int kLastClass = MPI_ERR_WIN;
constexpr int kClassBits = 7;  // classes (predefined, later also user-added) stay below 128

// "MPI_ERR_RANK"; nullptr for a value that is no class.
const char *class_name(int error_class);
// "invalid rank"; nullptr for a value that is no class.
const char *class_text(int error_class);
inline bool is_class(int error_class) { return error_class >= MPI_SUCCESS && error_class <= kLastClass; }

class ErrorCodeTable {
public:
    static constexpr int kSlots = 128;
    static constexpr uint32_t kMaxSequence = MPI_ERR_LASTCODE >> kClassBits;

    // max_sequence: tests make the sequence wrap around sooner.
    explicit ErrorCodeTable(uint32_t max_sequence = kMaxSequence) : max_sequence_(max_sequence) {}

    // A new code of error_class (a class other than MPI_SUCCESS) whose string is message
    // (cut to MPI_MAX_ERROR_STRING - 1 bytes).
    int make(int error_class, std::string_view message);
    // The class of code, or -1 when code is neither a class nor a code this table made.
    int class_of(int code) const;
    // The string of a class or code; false when code is neither.
    bool string_of(int code, std::string *out) const;

private:
    struct Slot {
        uint32_t sequence = 0;  // 0: never used
        int error_class = 0;
        char message[MPI_MAX_ERROR_STRING] = {};
    };
    const uint32_t max_sequence_;
    mutable std::mutex lock_;  // errors may be reported by any thread
    uint32_t last_ = 0;     // the sequence of the latest code; they start at 1
    bool wrapped_ = false;  // every sequence has been issued at least once
    Slot slots_[kSlots];
};

// The process's table.
ErrorCodeTable &error_codes();

}  // namespace plexus::mpi
