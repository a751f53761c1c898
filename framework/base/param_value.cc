#include "param_value.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "text_trim.h"

namespace plexus::mca {
namespace {


char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = lower(c);
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// The value goes into a message that ends up on a terminal or in a C string: control bytes and
// NULs are escaped, and a runaway value is cut so the message stays readable.
std::string quoted(std::string_view value) {
    constexpr size_t kMaxShown = 200;
    static const char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (size_t i = 0; i < value.size() && i < kMaxShown; ++i) {
        const auto c = static_cast<unsigned char>(value[i]);
        if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (value.size() > kMaxShown) out += "...";
    return out + "'";
}

// Every failure reads "<name>: '<value>' <problem> (accepted: <what>)".
std::optional<ParamValue> fail(const ParamSpec &spec, std::string_view text,
                               std::string_view problem, std::string *error) {
    if (error) {
        *error = spec.name + ": " + quoted(text) + " " + std::string(problem) +
                 " (accepted: " + describe_accepted(spec) + ")";
    }
    return std::nullopt;
}

enum class Digits { Ok, NotANumber, Overflow };

// All of s must be digits of base; no sign, no prefix.
Digits parse_unsigned(std::string_view s, int base, uint64_t *out) {
    if (s.empty()) return Digits::NotANumber;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, base);
    if (end != s.data() + s.size()) return Digits::NotANumber;
    if (ec == std::errc::result_out_of_range) return Digits::Overflow;
    return ec == std::errc() ? Digits::Ok : Digits::NotANumber;
}

std::optional<ParamValue> parse_bool(const ParamSpec &spec, std::string_view text,
                                     std::string *error) {
    static constexpr std::string_view kTrue[] = {"1", "true", "yes", "on", "enabled"};
    static constexpr std::string_view kFalse[] = {"0", "false", "no", "off", "disabled"};
    const std::string_view t = trim(text);
    if (t.empty()) return fail(spec, text, "is empty", error);
    ParamValue v;
    v.type = PLEXUS_PARAM_BOOL;
    for (size_t i = 0; i < std::size(kTrue); ++i) {
        if (iequals(t, kTrue[i]) || iequals(t, kFalse[i])) {
            v.i = iequals(t, kTrue[i]) ? 1 : 0;
            v.text = v.i ? "true" : "false";
            return v;
        }
    }
    return fail(spec, text, "is not a boolean", error);
}

std::optional<ParamValue> parse_int(const ParamSpec &spec, std::string_view text,
                                    std::string *error) {
    std::string_view t = trim(text);
    if (t.empty()) return fail(spec, text, "is empty", error);
    const bool negative = t.front() == '-';
    if (t.front() == '-' || t.front() == '+') t.remove_prefix(1);
    int base = 10;
    if (t.size() >= 2 && t[0] == '0' && lower(t[1]) == 'x') {
        base = 16;
        t.remove_prefix(2);
    }
    uint64_t magnitude = 0;
    const Digits d = parse_unsigned(t, base, &magnitude);
    if (d == Digits::NotANumber) return fail(spec, text, "is not an integer", error);
    const uint64_t limit =
        static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
    if (d == Digits::Overflow || magnitude > limit)
        return fail(spec, text, "does not fit in a 64-bit integer", error);
    ParamValue v;
    v.type = PLEXUS_PARAM_INT;
    // -(2^63) has no positive int64_t counterpart, so negate in unsigned arithmetic.
    v.i = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    if (spec.has_range && (v.i < spec.min || v.i > spec.max))
        return fail(spec, text, "is out of range", error);
    v.text = std::to_string(v.i);
    return v;
}

// "", "b", "k", "kb", "kib", ... -> the power of 1024 as a shift; -1 when not a size suffix.
int size_shift(std::string_view suffix) {
    const std::string s = lowered(suffix);
    if (s.empty() || s == "b") return 0;
    const std::string_view units = "kmgt";
    const size_t unit = units.find(s[0]);
    if (unit == std::string_view::npos) return -1;
    const std::string_view rest = std::string_view(s).substr(1);
    if (!rest.empty() && rest != "b" && rest != "ib") return -1;
    return static_cast<int>(10 * (unit + 1));
}

std::optional<ParamValue> parse_size(const ParamSpec &spec, std::string_view text,
                                     std::string *error) {
    std::string_view t = trim(text);
    if (t.empty()) return fail(spec, text, "is empty", error);
    if (t.front() == '-') return fail(spec, text, "is negative", error);
    if (t.front() == '+') t.remove_prefix(1);
    size_t ndigits = 0;
    while (ndigits < t.size() && t[ndigits] >= '0' && t[ndigits] <= '9') ++ndigits;
    const int shift = size_shift(trim(t.substr(ndigits)));
    uint64_t n = 0;
    const Digits d = parse_unsigned(t.substr(0, ndigits), 10, &n);
    if (d == Digits::NotANumber || shift < 0) return fail(spec, text, "is not a size", error);
    if (d == Digits::Overflow || n > (std::numeric_limits<uint64_t>::max() >> shift))
        return fail(spec, text, "is too large (more than 2^64-1 bytes)", error);
    ParamValue v;
    v.type = PLEXUS_PARAM_SIZE;
    v.u = n << shift;
    v.text = std::to_string(v.u);
    return v;
}

std::optional<ParamValue> parse_double(const ParamSpec &spec, std::string_view text,
                                       std::string *error) {
    std::string_view t = trim(text);
    if (t.empty()) return fail(spec, text, "is empty", error);
    // from_chars is locale-independent (strtod would read "0,5" under a German locale) but does not
    // take a leading '+'.
    if (t.front() == '+' && t.size() > 1 && t[1] != '-') t.remove_prefix(1);
    double d = 0.0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
    if (end != t.data() + t.size() || ec == std::errc::invalid_argument)
        return fail(spec, text, "is not a number", error);
    if (ec == std::errc::result_out_of_range)
        return fail(spec, text, "is out of range for a double", error);
    if (!std::isfinite(d)) return fail(spec, text, "is not a finite number", error);
    ParamValue v;
    v.type = PLEXUS_PARAM_DOUBLE;
    v.d = d;
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, d);  // shortest text that reads back as d
    v.text.assign(buf, res.ptr);
    return v;
}

std::optional<ParamValue> parse_string(std::string_view text) {
    ParamValue v;
    v.type = PLEXUS_PARAM_STRING;
    v.text = std::string(text);
    return v;
}

std::optional<ParamValue> parse_enum(const ParamSpec &spec, std::string_view text,
                                     std::string *error) {
    const std::string_view t = trim(text);
    for (size_t i = 0; i < spec.enum_values.size(); ++i) {
        if (iequals(t, spec.enum_values[i])) {
            ParamValue v;
            v.type = PLEXUS_PARAM_ENUM;
            v.i = static_cast<int64_t>(i);
            v.text = spec.enum_values[i];
            return v;
        }
    }
    return fail(spec, text, t.empty() ? "is empty" : "is not a valid value", error);
}

std::optional<ParamValue> parse_list(const ParamSpec &spec, std::string_view text,
                                     std::string *error) {
    ParamValue v;
    v.type = PLEXUS_PARAM_LIST;
    const std::string_view t = trim(text);
    if (t.empty()) return v;
    size_t start = 0;
    while (true) {
        const size_t comma = t.find(',', start);
        const std::string_view element = trim(t.substr(start, comma - start));
        if (element.empty()) return fail(spec, text, "has an empty element", error);
        v.list.emplace_back(element);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    for (const std::string &e : v.list) v.text += (v.text.empty() ? "" : ",") + e;
    return v;
}

std::string join(const std::vector<std::string> &items) {
    std::string out;
    for (const std::string &item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

}  // namespace

std::optional<ParamValue> parse_param_value(const ParamSpec &spec, std::string_view text,
                                            std::string *error) {
    switch (spec.type) {
    case PLEXUS_PARAM_BOOL: return parse_bool(spec, text, error);
    case PLEXUS_PARAM_INT: return parse_int(spec, text, error);
    case PLEXUS_PARAM_SIZE: return parse_size(spec, text, error);
    case PLEXUS_PARAM_DOUBLE: return parse_double(spec, text, error);
    case PLEXUS_PARAM_STRING: return parse_string(text);
    case PLEXUS_PARAM_ENUM: return parse_enum(spec, text, error);
    case PLEXUS_PARAM_LIST: return parse_list(spec, text, error);
    }
    // A C caller can pass any number as the type.
    return fail(spec, text, "cannot be parsed: the parameter has an unknown type", error);
}

std::string describe_accepted(const ParamSpec &spec) {
    switch (spec.type) {
    case PLEXUS_PARAM_BOOL: return "a boolean: 1/0, true/false, yes/no, on/off or enabled/disabled";
    case PLEXUS_PARAM_INT:
        if (spec.has_range)
            return "an integer from " + std::to_string(spec.min) + " to " +
                   std::to_string(spec.max);
        return "a 64-bit integer, decimal or 0x hex";
    case PLEXUS_PARAM_SIZE:
        return "a size in bytes, with an optional k, m, g or t suffix (powers of 1024; e.g. 512, "
               "64k, 4M, 1GiB)";
    case PLEXUS_PARAM_DOUBLE: return "a finite decimal number (e.g. 0.5, 2, 1e-3)";
    case PLEXUS_PARAM_STRING: return "any text";
    case PLEXUS_PARAM_ENUM:
        return spec.enum_values.empty() ? "nothing: no values were declared"
                                        : "one of: " + join(spec.enum_values);
    case PLEXUS_PARAM_LIST: return "a comma-separated list of non-empty items, or nothing";
    }
    return "nothing: unknown parameter type";
}

const char *param_type_name(plexus_param_type_t type) {
    switch (type) {
    case PLEXUS_PARAM_BOOL: return "bool";
    case PLEXUS_PARAM_INT: return "int";
    case PLEXUS_PARAM_SIZE: return "size";
    case PLEXUS_PARAM_DOUBLE: return "double";
    case PLEXUS_PARAM_STRING: return "string";
    case PLEXUS_PARAM_ENUM: return "enum";
    case PLEXUS_PARAM_LIST: return "list";
    }
    return "unknown";
}

}  // namespace plexus::mca
