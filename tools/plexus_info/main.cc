// plexus_info: what this Plexus installation has (frameworks, components, failures, parameters)
// and what it would select, for users and for the people who package it.
#include <iostream>

#include "mca/mca_core.h"
#include "model.h"
#include "options.h"
#include "text_report.h"

using plexus::info::Options;

namespace {

plexus::mca::CoreOptions core_options(const Options &o) {
    auto core = plexus::mca::CoreOptions::from_process();
    for (const auto &[name, value] : o.mca) core.sources.cli.emplace_back(name, value);
    return core;
}

nlohmann::json build(plexus::mca::McaCore &core, const Options &o, bool *found) {
    nlohmann::json doc;
    if (o.show_components) doc["core"] = plexus::info::describe_core(core);
    if (o.show_failed) doc["failed"] = plexus::info::describe_failures(core);
    if (o.param) doc["params"] = plexus::info::describe_params(core, o.param->first, o.param->second, o.level);
    if (o.component) {
        doc["component"] = plexus::info::describe_component(core, o.component->first, o.component->second, o.level);
        *found = !doc["component"].is_null();
    }
    if (o.select) doc["selection"] = plexus::info::describe_selection(core, *o.select, o);
    doc["errors"] = core.errors();
    return doc;
}

void print_text(const nlohmann::json &doc, const Options &o) {
    if (doc.contains("core")) plexus::info::print_core(std::cout, doc["core"]);
    if (doc.contains("failed")) plexus::info::print_failures(std::cout, doc["failed"]);
    if (doc.contains("params")) plexus::info::print_params(std::cout, doc["params"]);
    if (doc.contains("component")) {
        if (doc["component"].is_null())
            std::cout << "No component " << o.component->first << "_" << o.component->second
                      << " found (plexus_info lists what there is)\n";
        else
            plexus::info::print_component(std::cout, doc["component"]);
    }
    if (doc.contains("selection")) plexus::info::print_selection(std::cout, doc["selection"]);
}

}  // namespace

int main(int argc, char **argv) {
    std::string error, help;
    auto options = plexus::info::parse_options(argc, argv, &error, &help);
    if (!options) {
        (help.empty() ? std::cerr : std::cout) << (help.empty() ? error : help);
        return help.empty() ? 2 : 0;
    }
    auto core_opts = core_options(*options);
    core_opts.open_components = true;
    core_opts.load_all_components = true;  // lists every component, excluded ones too
    plexus::mca::McaCore core(std::move(core_opts));
    core.init();
    bool found = true;
    nlohmann::json doc = build(core, *options, &found);
    if (options->json)
        std::cout << doc.dump(2) << "\n";
    else
        print_text(doc, *options);
    bool selection_failed = doc.contains("selection") && !doc["selection"]["errors"].empty();
    return core.errors().empty() && found && !selection_failed ? 0 : 1;
}
