// MPI error classes and the error codes that carry a message. A code is (sequence << 7) | class:
// MPI_Error_class is a mask, and MPI_Error_string finds the message in a bounded table of the
// latest codes (older codes still give their class and say that the detail was dropped).
// Classes and codes a program adds (MPI_Add_error_class/code) live in UserErrors: classes right
// after MPI_ERR_WIN and below 128, codes above MPI_ERR_LASTCODE, both kept for good.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

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

// The classes and codes a program added, with the strings it gave them.
class UserErrors {
public:
    static constexpr int kFirstClass = kLastClass + 1;
    static constexpr int kMaxClasses = (1 << kClassBits) - kFirstClass;
    // User codes: kFirstCode + (index << kClassBits) | class, all above MPI_ERR_LASTCODE.
    static constexpr int kFirstCode = MPI_ERR_LASTCODE + 1;

    // max_codes: tests run out sooner.
    explicit UserErrors(int max_codes = (0x7fffffff - kFirstCode) >> kClassBits) : max_codes_(max_codes) {}

    // A new class; -1 when all kMaxClasses are taken.
    int add_class();
    // A new code of error_class (a user class or a predefined one other than MPI_SUCCESS); -1
    // when error_class is none of those, -2 when no codes are left.
    int add_code(int error_class);
    bool is_class(int error_class) const;
    // The class of a user code; -1 when code is none.
    int class_of(int code) const;
    // MPI_Add_error_string: false when code is no user class or code.
    bool set_string(int code, std::string_view text);
    // The string given to a user class or code ("" until one is given); false when code is none.
    bool string_of(int code, std::string *out) const;
    // MPI_LASTUSEDCODE: the largest class or code in use (the library's codes reach up to
    // MPI_ERR_LASTCODE; user codes are above it).
    int last_used() const;

private:
    struct Code {
        int error_class;
        std::string text;
    };
    mutable std::mutex lock_;
    const int max_codes_;
    std::vector<std::string> class_texts_;  // index: class - kFirstClass
    std::vector<Code> codes_;               // index: the code's index
};

UserErrors &user_errors();

// Over both the predefined classes with the library's codes and the user's: the class of a class
// or code (-1 when it is neither), and its string (false when neither).
int error_class_of(int code);
bool error_string_of(int code, std::string *out);
// Any class, predefined or added.
inline bool is_any_class(int error_class) { return is_class(error_class) || user_errors().is_class(error_class); }

}  // namespace plexus::mpi
