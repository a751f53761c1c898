// The names and texts of the error classes, and the table of codes with their messages.
#include "mpi/error_codes.h"

#include <algorithm>
#include <cstring>

namespace plexus::mpi {
namespace {

struct ClassInfo {
    const char *name;
    const char *text;
};

// Indexed by class value (mpi.h numbers them densely from 0).
constexpr ClassInfo kClasses[] = {
    {"MPI_SUCCESS", "no error"},
    {"MPI_ERR_BUFFER", "invalid buffer pointer"},
    {"MPI_ERR_COUNT", "invalid count argument"},
    {"MPI_ERR_TYPE", "invalid datatype"},
    {"MPI_ERR_TAG", "invalid tag"},
    {"MPI_ERR_COMM", "invalid communicator"},
    {"MPI_ERR_RANK", "invalid rank"},
    {"MPI_ERR_REQUEST", "invalid request"},
    {"MPI_ERR_ROOT", "invalid root"},
    {"MPI_ERR_GROUP", "invalid group"},
    {"MPI_ERR_OP", "invalid reduction operation"},
    {"MPI_ERR_TOPOLOGY", "invalid topology"},
    {"MPI_ERR_DIMS", "invalid dimension argument"},
    {"MPI_ERR_ARG", "invalid argument of some other kind"},
    {"MPI_ERR_UNKNOWN", "unknown error"},
    {"MPI_ERR_TRUNCATE", "message truncated on receive"},
    {"MPI_ERR_OTHER", "known error not in this list"},
    {"MPI_ERR_INTERN", "internal MPI error"},
    {"MPI_ERR_IN_STATUS", "error code is in status"},
    {"MPI_ERR_PENDING", "pending request"},
    {"MPI_ERR_ACCESS", "permission denied"},
    {"MPI_ERR_AMODE", "invalid file access mode"},
    {"MPI_ERR_ASSERT", "invalid assert argument"},
    {"MPI_ERR_BAD_FILE", "invalid file name"},
    {"MPI_ERR_BASE", "invalid base address"},
    {"MPI_ERR_CONVERSION", "error in a data conversion function"},
    {"MPI_ERR_DISP", "invalid displacement argument"},
    {"MPI_ERR_DUP_DATAREP", "data representation identifier already registered"},
    {"MPI_ERR_FILE_EXISTS", "file exists"},
    {"MPI_ERR_FILE_IN_USE", "file operation could not be completed: the file is in use"},
    {"MPI_ERR_FILE", "invalid file handle"},
    {"MPI_ERR_INFO_KEY", "info key longer than MPI_MAX_INFO_KEY"},
    {"MPI_ERR_INFO_NOKEY", "info key not defined"},
    {"MPI_ERR_INFO_VALUE", "info value longer than MPI_MAX_INFO_VAL"},
    {"MPI_ERR_INFO", "invalid info object"},
    {"MPI_ERR_IO", "I/O error"},
    {"MPI_ERR_KEYVAL", "invalid attribute key"},
    {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    {"MPI_ERR_NAME", "name not published"},
    {"MPI_ERR_NO_MEM", "out of memory (MPI_Alloc_mem)"},
    {"MPI_ERR_NOT_SAME", "collective argument not identical on all processes"},
    {"MPI_ERR_NO_SPACE", "not enough space"},
    {"MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    {"MPI_ERR_PORT", "invalid port name"},
    {"MPI_ERR_QUOTA", "quota exceeded"},
    {"MPI_ERR_READ_ONLY", "read-only file or file system"},
    {"MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {"MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {"MPI_ERR_SERVICE", "invalid service name"},
    {"MPI_ERR_SIZE", "invalid size argument"},
    {"MPI_ERR_SPAWN", "error spawning processes"},
    {"MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {"MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {"MPI_ERR_WIN", "invalid window"},
};
static_assert(sizeof kClasses / sizeof kClasses[0] == kLastClass + 1, "one entry per class");
static_assert(kLastClass < (1 << kClassBits), "classes fit below the sequence bits");

}  // namespace

const char *class_name(int error_class) { return is_class(error_class) ? kClasses[error_class].name : nullptr; }
const char *class_text(int error_class) { return is_class(error_class) ? kClasses[error_class].text : nullptr; }

int ErrorCodeTable::make(int error_class, std::string_view message) {
    std::lock_guard guard(lock_);
    if (last_ == max_sequence_) wrapped_ = true;
    last_ = last_ == max_sequence_ ? 1 : last_ + 1;
    Slot &s = slots_[last_ % kSlots];
    s.sequence = last_;
    s.error_class = error_class;
    const size_t n = std::min(message.size(), sizeof s.message - 1);
    std::memcpy(s.message, message.data(), n);
    s.message[n] = '\0';
    return static_cast<int>(last_ << kClassBits) | error_class;
}

int ErrorCodeTable::class_of(int code) const {
    if (is_class(code)) return code;
    if (code < 0 || code > MPI_ERR_LASTCODE) return -1;
    const int error_class = code & ((1 << kClassBits) - 1);
    // A code this table has not made yet (or a class with no name) is no code at all.
    const uint32_t sequence = static_cast<uint32_t>(code) >> kClassBits;
    std::lock_guard guard(lock_);
    const bool issued = sequence <= max_sequence_ && (sequence <= last_ || wrapped_);
    return is_class(error_class) && error_class != MPI_SUCCESS && issued ? error_class : -1;
}

bool ErrorCodeTable::string_of(int code, std::string *out) const {
    const int error_class = class_of(code);
    if (error_class < 0) return false;
    if (code == error_class) {
        *out = std::string(class_name(error_class)) + ": " + class_text(error_class);
        return true;
    }
    const uint32_t sequence = static_cast<uint32_t>(code) >> kClassBits;
    std::lock_guard guard(lock_);
    const Slot &s = slots_[sequence % kSlots];
    if (s.sequence == sequence && s.error_class == error_class) {
        *out = s.message;
    } else {
        *out = std::string(class_name(error_class)) + ": " + class_text(error_class) +
               " (the details of this error code were dropped: only the latest " + std::to_string(kSlots) +
               " are kept)";
    }
    return true;
}

ErrorCodeTable &error_codes() {
    static ErrorCodeTable table;
    return table;
}

int UserErrors::add_class() {
    std::lock_guard guard(lock_);
    if (static_cast<int>(class_texts_.size()) == kMaxClasses) return -1;
    class_texts_.emplace_back();
    return kFirstClass + static_cast<int>(class_texts_.size()) - 1;
}

int UserErrors::add_code(int error_class) {
    if (error_class == MPI_SUCCESS || !(mpi::is_class(error_class) || is_class(error_class))) return -1;
    std::lock_guard guard(lock_);
    if (static_cast<int>(codes_.size()) == max_codes_) return -2;
    codes_.push_back({error_class, {}});
    return kFirstCode + (static_cast<int>(codes_.size() - 1) << kClassBits) + error_class;
}

bool UserErrors::is_class(int error_class) const {
    std::lock_guard guard(lock_);
    return error_class >= kFirstClass && error_class < kFirstClass + static_cast<int>(class_texts_.size());
}

int UserErrors::class_of(int code) const {
    if (code < kFirstCode) return -1;
    const int error_class = code & ((1 << kClassBits) - 1);
    const size_t index = static_cast<size_t>(code - kFirstCode) >> kClassBits;
    std::lock_guard guard(lock_);
    return index < codes_.size() && codes_[index].error_class == error_class ? error_class : -1;
}

bool UserErrors::set_string(int code, std::string_view text) {
    const int code_class = class_of(code);
    std::lock_guard guard(lock_);
    if (code_class >= 0) {
        codes_[static_cast<size_t>(code - kFirstCode) >> kClassBits].text = text;
        return true;
    }
    if (code < kFirstClass || code >= kFirstClass + static_cast<int>(class_texts_.size())) return false;
    class_texts_[static_cast<size_t>(code - kFirstClass)] = text;
    return true;
}

bool UserErrors::string_of(int code, std::string *out) const {
    const int code_class = class_of(code);
    std::lock_guard guard(lock_);
    if (code_class >= 0) {
        *out = codes_[static_cast<size_t>(code - kFirstCode) >> kClassBits].text;
        return true;
    }
    if (code < kFirstClass || code >= kFirstClass + static_cast<int>(class_texts_.size())) return false;
    *out = class_texts_[static_cast<size_t>(code - kFirstClass)];
    return true;
}

int UserErrors::last_used() const {
    std::lock_guard guard(lock_);
    if (codes_.empty()) return MPI_ERR_LASTCODE;
    return kFirstCode + (static_cast<int>(codes_.size() - 1) << kClassBits) + codes_.back().error_class;
}

UserErrors &user_errors() {
    static UserErrors errors;
    return errors;
}

int error_class_of(int code) {
    if (user_errors().is_class(code)) return code;
    if (code >= UserErrors::kFirstCode) return user_errors().class_of(code);
    return error_codes().class_of(code);
}

bool error_string_of(int code, std::string *out) {
    if (user_errors().string_of(code, out)) return true;
    return error_codes().string_of(code, out);
}

}  // namespace plexus::mpi
