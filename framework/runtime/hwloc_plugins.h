// hwloc opens every plugin it finds when a process initialises its first topology, whatever the
// topology is for. Debian's hwloc_xml_libxml pulls in libxml2 and ICU, hwloc_gl and hwloc_opencl
// X11 and OpenCL: about 17 ms of CPU of the 19 that first init took here, in every rank whose
// components ask for the topology and in plexrun. Plexus needs none of them: hwloc reads and
// writes its own XML without libxml2 (its built-in parser), and no component looks at GL
// displays or OpenCL devices. A SkippedHwlocPlugins around that init keeps the named ones out,
// unless the user set HWLOC_PLUGINS_BLACKLIST (to anything, even empty: the way to get them
// all back), and unsets the variable again at once so that nothing else of the process (nor the
// ranks plexrun starts) inherits it. Plugins load once per process: a topology of the program's
// own, made while Plexus's lives, gets the same set (docs/runtime-contract.md).
#pragma once

#include <cstdlib>

namespace plexus::runtime {

// A rank: PCI stays (cheap, and device locality is what a NIC-aware component would ask).
inline constexpr const char *kHwlocPluginsRanksSkip = "hwloc_xml_libxml,hwloc_gl,hwloc_opencl";
// plexrun's core map keeps no I/O objects: it needs none.
inline constexpr const char *kHwlocPluginsLauncherSkips = "hwloc_xml_libxml,hwloc_gl,hwloc_opencl,hwloc_pci";

class SkippedHwlocPlugins {
public:
    explicit SkippedHwlocPlugins(const char *plugins) : set_(std::getenv(kVariable) == nullptr) {
        if (set_) ::setenv(kVariable, plugins, 0);
    }
    ~SkippedHwlocPlugins() {
        if (set_) ::unsetenv(kVariable);
    }
    SkippedHwlocPlugins(const SkippedHwlocPlugins &) = delete;
    SkippedHwlocPlugins &operator=(const SkippedHwlocPlugins &) = delete;

private:
    static constexpr const char *kVariable = "HWLOC_PLUGINS_BLACKLIST";
    bool set_;
};

}  // namespace plexus::runtime
