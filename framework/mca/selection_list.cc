#include "selection_list.h"

#include <algorithm>

#include "base/text_trim.h"

namespace plexus::mca {
namespace {

bool valid_name(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

std::string forms(std::string_view param) {
    std::string p(param);
    return "accepted: " + p + "=a,b (only these), " + p + "=^a,b (all but these), or empty (all)";
}

}  // namespace

bool SelectionList::names_component(std::string_view component) const {
    return std::find(names.begin(), names.end(), component) != names.end();
}

bool SelectionList::admits(std::string_view component) const {
    switch (mode) {
    case Mode::All: return true;
    case Mode::Include: return names_component(component);
    case Mode::Exclude: return !names_component(component);
    }
    return true;
}

std::string SelectionList::to_string() const {
    std::string out = mode == Mode::Exclude ? "^" : "";
    for (size_t i = 0; i < names.size(); ++i) out += (i ? "," : "") + names[i];
    return out;
}

std::optional<SelectionList> parse_selection_list(std::string_view param, std::string_view text,
                                                  std::string *error) {
    SelectionList list;
    std::string_view rest = trim(text);
    if (rest.empty()) return list;
    list.mode = SelectionList::Mode::Include;
    if (rest.front() == '^') {
        list.mode = SelectionList::Mode::Exclude;
        rest.remove_prefix(1);
    }
    auto fail = [&](const std::string &what) {
        *error = std::string(param) + "=" + std::string(text) + ": " + what + " (" +
                 forms(param) + ")";
        return std::nullopt;
    };
    while (true) {
        size_t comma = rest.find(',');
        std::string_view item = trim(rest.substr(0, comma));
        if (!item.empty() && item.front() == '^')
            return fail("'^' may only stand once, at the start, and negates the whole list");
        if (item.empty()) return fail("empty component name");
        if (!valid_name(item))
            return fail("'" + std::string(item) + "' is not a component name ([a-z0-9_]+)");
        if (!list.names_component(item)) list.names.emplace_back(item);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return list;
}

}  // namespace plexus::mca
