// The user's component list for a framework: "sm,self" (only these), "^tcp,openib" (all but
// these) or empty (all). One leading '^' negates the whole list; mixing is an error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plexus::mca {

struct SelectionList {
    enum class Mode { All, Include, Exclude };
    Mode mode = Mode::All;
    std::vector<std::string> names;  // in the order given, no duplicates

    bool admits(std::string_view component) const;
    bool names_component(std::string_view component) const;
    std::string to_string() const;  // "btl=sm,self" style, without the framework
};

// param is the parameter's name (the framework, e.g. "btl"), used in error messages that say
// what was wrong and show the accepted forms.
std::optional<SelectionList> parse_selection_list(std::string_view param, std::string_view text,
                                                  std::string *error);

}  // namespace plexus::mca
