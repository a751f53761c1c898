#include "text_report.h"

#include <iomanip>

namespace plexus::info {
namespace {

using nlohmann::json;

std::string str(const json &j, const char *key) { return j.at(key).get<std::string>(); }

void print_component_line(std::ostream &out, const json &c) {
    std::string state = str(c, "state");
    if (c.contains("priority")) {
        state += ", priority " + std::to_string(c.at("priority").get<int>());
        if (!c.at("selected").get<bool>()) state += " (not selected)";
    }
    if (!str(c, "reason").empty()) state += ": " + str(c, "reason");
    out << "    " << std::left << std::setw(12) << str(c, "name") << std::setw(8) << str(c, "version")
        << state << "\n"
        << "    " << std::setw(12) << "" << "from " << str(c, "origin") << "\n";
}

std::string quoted_value(const json &p) {
    std::string t = str(p, "type"), v = str(p, "value");
    return (t == "string" || t == "list") ? "\"" + v + "\"" : v;
}

}  // namespace

void print_core(std::ostream &out, const json &core) {
    out << "Plexus " << str(core, "version") << " (MCA ABI " << str(core, "mca_abi") << ", host API "
        << str(core, "host_api") << ", loader " << str(core, "loader") << ")\n";
    out << "Component folders:";
    if (core.at("folders").empty()) out << " none (set mca_base_component_path)";
    for (const auto &f : core.at("folders")) out << "\n  " << f.get<std::string>();
    out << "\n";
    for (const auto &fw : core.at("frameworks")) {
        out << "\n" << str(fw, "name") << " (interface " << str(fw, "interface") << ", "
            << str(fw, "policy") << ", query per " << str(fw, "scope") << "): "
            << str(fw, "description") << "\n";
        if (!str(fw, "list").empty()) out << "  list: " << str(fw, "name") << "=" << str(fw, "list") << "\n";
        if (fw.at("components").empty()) out << "    (no components found)\n";
        for (const auto &c : fw.at("components")) print_component_line(out, c);
    }
    if (size_t failed = core.at("failed").get<size_t>())
        out << "\n" << failed << " component file(s) failed to load: plexus_info --show-failed\n";
}

void print_failures(std::ostream &out, const json &failures) {
    if (failures.empty()) {
        out << "No component failed to load.\n";
        return;
    }
    out << "Components that failed to load:\n";
    for (const auto &f : failures)
        out << "  " << str(f, "file") << "\n    cause: " << str(f, "cause") << "\n    hint:  "
            << str(f, "hint") << "\n";
}

void print_params(std::ostream &out, const json &params) {
    out << "Parameters of " << str(params, "framework") << " " << str(params, "component")
        << " up to level " << params.at("level") << ":\n";
    for (const auto &p : params.at("params")) {
        out << "  " << str(p, "name") << " = " << quoted_value(p) << "\n"
            << "      " << str(p, "type") << ", level " << p.at("level") << ", source: "
            << str(p, "source");
        if (str(p, "origin") != str(p, "source")) out << " (" << str(p, "origin") << ")";
        out << ", default \"" << str(p, "default") << "\"\n"
            << "      " << str(p, "help") << "\n"
            << "      accepted: " << str(p, "accepted") << "\n";
        if (p.contains("synonyms"))
            for (const auto &s : p.at("synonyms")) out << "      synonym: " << s.get<std::string>() << "\n";
    }
    if (int hidden = params.at("hidden").get<int>())
        out << "  (" << hidden << " more parameter(s) above level " << params.at("level")
            << "; use --level 9 to see all)\n";
}

void print_component(std::ostream &out, const json &c) {
    out << str(c, "framework") << "_" << str(c, "name") << " " << str(c, "version") << ": "
        << str(c, "description") << "\n"
        << "  origin:    " << str(c, "origin") << "\n"
        << "  package:   " << str(c, "package") << " (" << str(c, "license") << ")\n"
        << "  ABI:       MCA " << str(c, "abi") << ", " << str(c, "framework") << " interface "
        << str(c, "interface") << "\n"
        << "  state:     " << str(c, "state");
    if (!str(c, "reason").empty()) out << ": " << str(c, "reason");
    out << "\n";
    print_params(out, c.at("params"));
}

void print_selection(std::ostream &out, const json &s) {
    out << "Selection dry run for " << str(s, "framework");
    if (s.contains("policy")) out << " (" << str(s, "policy") << ")";
    if (s.contains("scope")) out << " for " << str(s, "scope");
    out << "\n";
    if (s.contains("list") && !str(s, "list").empty())
        out << "  list: " << str(s, "framework") << "=" << str(s, "list") << "\n";
    for (const auto &d : s.at("decisions"))
        out << "  " << std::left << std::setw(12) << str(d, "component") << std::setw(14)
            << (d.at("selected").get<bool>() ? "selected" : "not selected") << str(d, "reason") << "\n";
    out << "Result:";
    if (s.at("selected").empty()) out << " nothing selected";
    for (const auto &n : s.at("selected")) out << " " << n.get<std::string>();
    out << "\n";
    for (const auto &e : s.at("errors")) out << "Error: " << e.get<std::string>() << "\n";
}

}  // namespace plexus::info
