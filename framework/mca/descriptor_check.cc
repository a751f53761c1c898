// Validation of a component descriptor before the core trusts any of it: each defect gets its own
// cause and a hint the user can act on, because a plugin folder is often shared by several builds.
#include "descriptor_check.h"

#include <cstddef>
#include <cstdio>

#include "framework_table.h"

namespace plexus::mca {
namespace {

const char kRebuildHint[] =
    "rebuild it against the SDK of this Plexus (pkg-config plexus-component)";

// The core reads every field up to and including query; a shorter struct is from an alien build.
constexpr size_t kMinStructSize =
    offsetof(plexus_component_t, query) + sizeof(plexus_component_t::query);

using Problem = std::optional<DescriptorProblem>;

Problem problem(std::string cause, std::string hint) {
    return DescriptorProblem{std::move(cause), std::move(hint)};
}

std::string version_text(unsigned major, unsigned minor) {
    return std::to_string(major) + "." + std::to_string(minor);
}

std::string hex32(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(value));
    return text;
}

Problem check_layout(const plexus_component_t &d) {
    if (d.magic != PLEXUS_COMPONENT_MAGIC)
        return problem("not a Plexus component (bad magic " + hex32(d.magic) + ", expected " +
                           hex32(PLEXUS_COMPONENT_MAGIC) + ")",
                       "the file exports a descriptor symbol but is not a Plexus component; "
                       "remove it from the component path");
    if (d.struct_size < kMinStructSize)
        return problem("descriptor is " + std::to_string(d.struct_size) +
                           " bytes (struct_size), this core reads at least " +
                           std::to_string(kMinStructSize),
                       kRebuildHint);
    return std::nullopt;
}

Problem check_abi(const plexus_component_t &d) {
    const std::string core = version_text(PLEXUS_MCA_ABI_MAJOR, PLEXUS_MCA_ABI_MINOR);
    const std::string built = version_text(d.abi_major, d.abi_minor);
    if (d.abi_major != PLEXUS_MCA_ABI_MAJOR)
        return problem("built for MCA ABI " + built + ", this core supports " + core, kRebuildHint);
    if (d.abi_minor > PLEXUS_MCA_ABI_MINOR)
        return problem("built for a newer core (MCA ABI " + built + " > " + core + ")",
                       "upgrade Plexus, or " + std::string(kRebuildHint));
    return std::nullopt;
}

Problem check_framework(const plexus_component_t &d) {
    if (!d.framework)
        return problem("descriptor names no framework (framework is NULL); the frameworks are " +
                           framework_name_list(),
                       "fix the descriptor: framework is one of " + framework_name_list());
    const FrameworkSpec *spec = find_framework_spec(d.framework);
    if (!spec)
        return problem("unknown framework '" + std::string(d.framework) + "'",
                       "fix the descriptor: " + unknown_framework_hint(d.framework));
    const std::string fw = d.framework;
    const std::string built = version_text(d.framework_major, d.framework_minor);
    const std::string have = mca::version_text(spec->version);
    if (d.framework_major != spec->version.major)
        return problem(
            "built for the " + fw + " interface " + built + ", this core implements " + have,
            kRebuildHint);
    if (d.framework_minor > spec->version.minor)
        return problem("built for a newer " + fw + " interface (" + built + " > " + have + ")",
                       "upgrade Plexus, or " + std::string(kRebuildHint));
    return std::nullopt;
}

bool valid_name(std::string_view name) {
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return !name.empty();
}

Problem check_name(const plexus_component_t &d) {
    const char hint[] = "fix the descriptor: a component name is [a-z0-9_]+, as in its file name";
    if (!d.name) return problem("descriptor has no component name (name is NULL)", hint);
    if (!*d.name) return problem("component name is empty", hint);
    if (!valid_name(d.name))
        return problem("component name '" + std::string(d.name) + "' is not [a-z0-9_]+", hint);
    return std::nullopt;
}

// Only called once framework and name are known to be valid strings.
Problem check_matches_file(const plexus_component_t &d, std::string_view expected_framework,
                           std::string_view expected_name) {
    const std::string fw = d.framework, name = d.name;
    if (!expected_framework.empty() && fw != expected_framework)
        return problem(
            "descriptor says framework '" + fw + "' but the file name says '" +
                std::string(expected_framework) + "'",
            "the file must be named plexus_" + fw + "_" + name + ".so, or the descriptor fixed");
    if (!expected_name.empty() && name != expected_name)
        return problem(
            "descriptor says name '" + name + "' but the file name says '" +
                std::string(expected_name) + "'",
            "the file must be named plexus_" + fw + "_" + name + ".so, or the descriptor fixed");
    return std::nullopt;
}

// register_params may be NULL (a component without parameters); the other three are always called.
Problem check_functions(const plexus_component_t &d) {
    const char *missing = !d.open ? "open" : !d.close ? "close" : !d.query ? "query" : nullptr;
    if (!missing) return std::nullopt;
    return problem("descriptor has no " + std::string(missing) + " function (NULL)",
                   "every component provides open, close and query; fix the descriptor");
}

}  // namespace

std::optional<DescriptorProblem> check_descriptor(const plexus_component_t *d,
                                                  std::string_view expected_framework,
                                                  std::string_view expected_name) {
    if (!d) return problem("no descriptor (null pointer)", "this is a bug in the caller");
    // Order matters: each check reads only fields the previous ones vouched for.
    for (auto check : {check_layout, check_abi, check_framework, check_name})
        if (auto p = check(*d)) return p;
    if (auto p = check_matches_file(*d, expected_framework, expected_name)) return p;
    return check_functions(*d);
}

}  // namespace plexus::mca
