// The descriptor and its four entry points, written once: a component describes itself in a
// struct and PLEXUS_SDK_COMPONENT makes the exported descriptor from it.
//
//   struct Mine {
//       static constexpr plexus::sdk::Identity identity{"plexus-btl-mine", "BSD-3-Clause",
//                                                       "one line for plexus_info", {1, 0, 0}};
//       static int register_params(const plexus_host_api_t *, const plexus_component_t *self); // optional
//       static int open(const plexus_host_api_t *, const plexus_component_t *self, plexus_reason_t *why);
//       static int close();
//       static int query(const void *scope, plexus_query_result_t *result);
//   };
//   PLEXUS_SDK_COMPONENT(btl, mine, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Mine);
//
// The entry points the core calls are made here: each refuses a host table of another major
// (with the reason), hands the component its own descriptor, and turns an exception into an
// error code (C callers cannot catch it).
#pragma once

#include <cstdint>
#include <type_traits>

#include <plexus/component.h>
#include <plexus/sdk/host.hpp>
#include <plexus/sdk/reason.hpp>

namespace plexus::sdk {

struct Version {
    uint16_t major, minor, release;
};

struct Identity {
    const char *package;      // the distribution package that ships it
    const char *license;      // SPDX identifier
    const char *description;  // one line for plexus_info
    Version version;          // the component's own version
};

template <class Impl, class = void>
struct HasRegisterParams : std::false_type {};
template <class Impl>
struct HasRegisterParams<Impl, std::void_t<decltype(&Impl::register_params)>> : std::true_type {};

// Impl's entry points as the core calls them; Self is the descriptor they belong to.
template <class Impl, const plexus_component_t *Self>
struct Entry {
    static int register_params(const plexus_host_api_t *host, const plexus_component_t *) noexcept {
        if (!host_compatible(host)) return PLEXUS_ERR_NOT_AVAILABLE;
        return guarded(nullptr, [&] { return Impl::register_params(host, Self); });
    }
    static int open(const plexus_host_api_t *host, plexus_reason_t *why) noexcept {
        if (!host_compatible(host)) {
            set_reason(why, "built for host API %d, this Plexus offers %d: rebuild the component",
                       PLEXUS_HOST_API_MAJOR, host ? int(host->major) : -1);
            return PLEXUS_ERR_NOT_AVAILABLE;
        }
        return guarded(why, [&] { return Impl::open(host, Self, why); });
    }
    static int close() noexcept {
        return guarded(nullptr, [] { return Impl::close(); });
    }
    static int query(const void *scope, plexus_query_result_t *result) noexcept {
        if (!result) return PLEXUS_ERR_BAD_PARAM;
        return guarded(&result->why, [&] { return Impl::query(scope, result); });
    }

    static constexpr plexus_component_t descriptor(const char *framework, uint16_t fw_major, uint16_t fw_minor,
                                                   const char *name) {
        constexpr Identity id = Impl::identity;
        plexus_component_t d{};
        d.magic = PLEXUS_COMPONENT_MAGIC;
        d.struct_size = sizeof(plexus_component_t);
        d.abi_major = PLEXUS_MCA_ABI_MAJOR;
        d.abi_minor = PLEXUS_MCA_ABI_MINOR;
        d.framework = framework;
        d.framework_major = fw_major;
        d.framework_minor = fw_minor;
        d.name = name;
        d.version_major = id.version.major;
        d.version_minor = id.version.minor;
        d.version_release = id.version.release;
        d.package = id.package;
        d.license = id.license;
        d.description = id.description;
        if constexpr (HasRegisterParams<Impl>::value) d.register_params = &Entry::register_params;
        d.open = &Entry::open;
        d.close = &Entry::close;
        d.query = &Entry::query;
        return d;
    }
};

}  // namespace plexus::sdk

// Defines the exported descriptor plexus_<fw>_<cname>_component of Impl (a struct as above), for
// framework interface fw_major.fw_minor (PLEXUS_<FW>_MAJOR/MINOR from the framework's header).
#define PLEXUS_SDK_COMPONENT(fw, cname, fw_major, fw_minor, Impl)                                         \
    PLEXUS_DECLARE_COMPONENT(fw, cname);                                                                 \
    PLEXUS_DECLARE_COMPONENT(fw, cname) =                                                                \
        ::plexus::sdk::Entry<Impl, &PLEXUS_COMPONENT_SYMBOL(fw, cname)>::descriptor(#fw, (fw_major), (fw_minor), \
                                                                                    #cname)

// The descriptor of component (fw, cname), e.g. for code that names itself before the macro.
#define PLEXUS_SDK_SELF(fw, cname) (&PLEXUS_COMPONENT_SYMBOL(fw, cname))
