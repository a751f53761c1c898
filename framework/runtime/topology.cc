// The node's hardware through hwloc, held by RAII handles: the summary, the self cpuset and the
// cpuset relations the host API hands to components.
#include "runtime/topology.h"

#include <hwloc.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "runtime/hwloc_plugins.h"

namespace plexus::runtime {
namespace {

struct TopologyDestroy {
    void operator()(hwloc_topology_t t) const noexcept { hwloc_topology_destroy(t); }
};
using TopologyPtr = std::unique_ptr<hwloc_topology, TopologyDestroy>;

struct BitmapFree {
    void operator()(hwloc_bitmap_t b) const noexcept { hwloc_bitmap_free(b); }
};
using BitmapPtr = std::unique_ptr<hwloc_bitmap_s, BitmapFree>;

struct MallocFree {
    void operator()(char *p) const noexcept { std::free(p); }
};

BitmapPtr new_bitmap() {
    BitmapPtr set(hwloc_bitmap_alloc());
    if (!set) throw std::bad_alloc();
    return set;
}

BitmapPtr copy_bitmap(hwloc_const_bitmap_t from) {
    BitmapPtr set(hwloc_bitmap_dup(from));
    if (!set) throw std::bad_alloc();
    return set;
}

std::string list_string(hwloc_const_bitmap_t set) {
    char *raw = nullptr;
    if (hwloc_bitmap_list_asprintf(&raw, set) < 0) throw std::bad_alloc();
    std::unique_ptr<char, MallocFree> text(raw);
    return text.get();
}

[[noreturn]] void fail(const char *call, int err, const std::string &detail = {}) {
    std::string msg = std::string("hwloc: ") + call + " failed";
    if (!detail.empty()) msg += " (" + detail + ")";
    if (err != 0) msg += ": " + std::string(std::strerror(err));
    throw std::runtime_error(msg);
}

// The headers we compiled against and the library we run with must agree on the ABI major,
// or every struct we read (obj->attr, cpusets) may be laid out differently.
void check_hwloc_abi() {
    const unsigned runtime = hwloc_get_api_version();
    if ((runtime >> 16) != (HWLOC_API_VERSION >> 16))
        fail("hwloc_get_api_version", 0, "built against API " + std::to_string(HWLOC_API_VERSION) +
                                             ", running with " + std::to_string(runtime));
}

// Creates a topology, lets `configure` choose its source (throwing on a bad one), and loads it.
template <typename Configure>
TopologyPtr load(Configure &&configure) {
    check_hwloc_abi();
    hwloc_topology_t raw = nullptr;
    {
        SkippedHwlocPlugins skipped(kHwlocPluginsRanksSkip);
        if (hwloc_topology_init(&raw) != 0) fail("hwloc_topology_init", errno);
    }
    TopologyPtr topo(raw);
    configure(topo.get());
    if (hwloc_topology_load(topo.get()) != 0) fail("hwloc_topology_load", errno);
    return topo;
}

int count(hwloc_topology_t t, hwloc_obj_type_t type) {
    const int n = hwloc_get_nbobjs_by_type(t, type);
    return n < 0 ? 0 : n;  // -1 only for a type at several depths, which these types never are
}

hwloc_obj_t first(hwloc_topology_t t, hwloc_obj_type_t type) {
    return hwloc_get_obj_by_type(t, type, 0);
}

uint64_t cache_bytes(hwloc_topology_t t, hwloc_obj_type_t type) {
    const hwloc_obj_t cache = first(t, type);
    return cache && cache->attr ? cache->attr->cache.size : 0;
}

int cache_line(hwloc_topology_t t) {
    const hwloc_obj_t l1d = first(t, HWLOC_OBJ_L1CACHE);
    const unsigned line = l1d && l1d->attr ? l1d->attr->cache.linesize : 0;
    return line > 0 ? static_cast<int>(line) : 64;  // the common line; VMs often hide it
}

// The NUMA node closest to `where`: of the nodes whose cpuset holds all of it, the one with the
// fewest PUs, so that a machine-wide memory-only node (CXL, NVDIMM) never wins over local DRAM.
int numa_holding(hwloc_topology_t t, hwloc_const_cpuset_t where) {
    hwloc_obj_t best = nullptr;
    for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, n));) {
        if (!n->complete_cpuset || !hwloc_bitmap_isincluded(where, n->complete_cpuset)) continue;
        const int weight = hwloc_bitmap_weight(n->complete_cpuset);
        if (!best || weight < hwloc_bitmap_weight(best->complete_cpuset)) best = n;
    }
    // os_index: the number numactl, mbind and /sys use, which is what a component passes on.
    return best ? static_cast<int>(best->os_index) : -1;
}

bool covered_at_depth(hwloc_topology_t t, int depth, hwloc_const_cpuset_t set) {
    for (hwloc_obj_t o = nullptr; (o = hwloc_get_next_obj_by_depth(t, depth, o));)
        if (o->complete_cpuset && hwloc_bitmap_isincluded(set, o->complete_cpuset)) return true;
    return false;
}

// Whether a single object of `type` spans all of `set`. Complete cpusets, so that a peer bound
// to PUs our cgroup hides from us is still placed correctly.
bool one_object_covers(hwloc_topology_t t, hwloc_obj_type_t type, hwloc_const_cpuset_t set) {
    const int depth = hwloc_get_type_depth(t, type);
    if (depth == HWLOC_TYPE_DEPTH_UNKNOWN) return false;
    if (depth != HWLOC_TYPE_DEPTH_MULTIPLE) return covered_at_depth(t, depth, set);
    for (int d = 0; d < hwloc_topology_get_depth(t); ++d)
        if (hwloc_get_depth_type(t, d) == type && covered_at_depth(t, d, set)) return true;
    return false;
}

// hwloc_bitmap_list_sscanf accepts nearly anything ("0x3" reads as 3, "1 2" as 1-2, "0-1x" as
// 0-1, "4294967296" wraps to 0) and allocates up to the largest index it reads, so cpusets that
// arrive from peers are first held to the strict "N[-N][,N[-N]]..." form with N <= max_pu.
bool strict_list_syntax(std::string_view text, int64_t max_pu) {
    bool want_digit = true, in_range = false;
    int64_t number = 0;
    for (const char c : text) {
        if (c >= '0' && c <= '9') {
            number = number * 10 + (c - '0');
            if (number > max_pu) return false;
            want_digit = false;
        } else if (want_digit) {
            return false;
        } else if (c == '-' && !in_range) {
            want_digit = in_range = true;
            number = 0;
        } else if (c == ',') {
            want_digit = true;
            in_range = false;
            number = 0;
        } else {
            return false;
        }
    }
    return !want_digit;
}

// nullptr when `text` does not parse, is empty, or names PUs this machine does not have.
BitmapPtr parse_cpuset(hwloc_topology_t t, const std::string &text) {
    hwloc_const_cpuset_t machine = hwloc_topology_get_complete_cpuset(t);
    if (text.find('\0') != std::string::npos) return nullptr;
    if (!strict_list_syntax(text, hwloc_bitmap_last(machine))) return nullptr;
    BitmapPtr set = new_bitmap();
    if (hwloc_bitmap_list_sscanf(set.get(), text.c_str()) != 0) return nullptr;
    if (hwloc_bitmap_iszero(set.get())) return nullptr;
    if (!hwloc_bitmap_isincluded(set.get(), machine)) return nullptr;
    return set;
}

}  // namespace

struct Topology::Impl {
    TopologyPtr topo;
    bool from_os;  // loaded by Topology(), not from a description handed to us

    Impl(TopologyPtr loaded, bool os) : topo(std::move(loaded)), from_os(os) {}

    static std::unique_ptr<Topology> described(TopologyPtr topo) {
        auto impl = std::make_unique<Impl>(std::move(topo), false);
        return std::unique_ptr<Topology>(new Topology(std::move(impl)));
    }

    // Binding questions only make sense for the machine we run on. Descriptions are never it, even
    // when HWLOC_THISSYSTEM=1 says so, so that tests on them give the same answers everywhere;
    // hwloc vetoes the OS load when HWLOC_XMLFILE or HWLOC_SYNTHETIC redirected it.
    bool this_system() const { return from_os && hwloc_topology_is_thissystem(topo.get()) != 0; }

    // Where this process may run: its binding on this system (clipped to the machine, so that
    // relation() accepts it), else the whole machine.
    BitmapPtr where_we_run() const {
        hwloc_topology_t t = topo.get();
        if (this_system()) {
            BitmapPtr bound = new_bitmap();
            if (hwloc_get_cpubind(t, bound.get(), HWLOC_CPUBIND_PROCESS) == 0) {
                hwloc_bitmap_and(bound.get(), bound.get(), hwloc_topology_get_complete_cpuset(t));
                if (!hwloc_bitmap_iszero(bound.get())) return bound;
            }
            // The OS would not say: an unbindable process runs anywhere.
            return copy_bitmap(hwloc_topology_get_topology_cpuset(t));
        }
        return copy_bitmap(hwloc_topology_get_complete_cpuset(t));
    }

    // Binding spanning several nodes: the node of the PU we ran on last is the best guess.
    int self_numa_node(hwloc_const_cpuset_t where) const {
        hwloc_topology_t t = topo.get();
        const int node = numa_holding(t, where);
        if (node >= 0 || !this_system()) return node;
        BitmapPtr last = new_bitmap();
        if (hwloc_get_last_cpu_location(t, last.get(), HWLOC_CPUBIND_PROCESS) != 0) return -1;
        // A multi-threaded process may report several PUs; one is enough to name a node.
        const int pu = hwloc_bitmap_first(last.get());
        if (pu < 0) return -1;
        hwloc_bitmap_only(last.get(), static_cast<unsigned>(pu));
        return numa_holding(t, last.get());
    }
};

Topology::Topology()
    : impl_(std::make_unique<Impl>(load([](hwloc_topology_t) {}), true)) {}

Topology::Topology(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Topology::~Topology() = default;

bool Topology::bind_area_local(void *addr, size_t len) const {
    if (!impl_->this_system() || !addr || len == 0) return false;
    hwloc_topology_t t = impl_->topo.get();
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    if (!cpus) return false;
    bool ok = hwloc_get_cpubind(t, cpus, HWLOC_CPUBIND_PROCESS) == 0;
    // Binding to the nodes near our CPUs; with no CPU binding that is every node, which the
    // kernel treats as "no preference", so first touch still decides.
    ok = ok && hwloc_set_area_membind(t, addr, len, cpus, HWLOC_MEMBIND_BIND, 0) == 0;
    hwloc_bitmap_free(cpus);
    return ok;
}

bool Topology::memory_binding_moot() {
    // "0" (or "0-0"): one node, where every page goes anyway.
    if (FILE *f = std::fopen("/sys/devices/system/node/online", "re")) {
        char line[64] = "";
        const bool got = std::fgets(line, sizeof line, f) != nullptr;
        std::fclose(f);
        const std::string nodes = got ? std::string(line, strcspn(line, "\n")) : "";
        if (nodes == "0" || nodes == "0-0") return true;
    }
    // Unbound: the nodes near our CPUs are all of them, which the kernel treats as no preference.
    cpu_set_t mine;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) return false;
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 && CPU_COUNT(&mine) >= online;
}

// Throws std::runtime_error when the buffer is not hwloc XML hwloc can load.
std::unique_ptr<Topology> Topology::from_xml(const std::string &xml) {
    // hwloc counts the terminating NUL, as hwloc_topology_export_xmlbuffer does.
    if (xml.empty() || xml.size() >= static_cast<size_t>(INT_MAX))
        fail("hwloc_topology_set_xmlbuffer", EINVAL, std::to_string(xml.size()) + " bytes of XML");
    auto topo = load([&xml](hwloc_topology_t t) {
        if (hwloc_topology_set_xmlbuffer(t, xml.c_str(), static_cast<int>(xml.size() + 1)) != 0) {
            const int err = errno;  // before building the message may clobber it
            fail("hwloc_topology_set_xmlbuffer", err, "not a loadable hwloc XML topology");
        }
    });
    return Impl::described(std::move(topo));
}

// Throws std::runtime_error when hwloc rejects the description (unknown type, bad attribute).
std::unique_ptr<Topology> Topology::from_synthetic(const std::string &description) {
    auto topo = load([&description](hwloc_topology_t t) {
        if (hwloc_topology_set_synthetic(t, description.c_str()) != 0) {
            const int err = errno;  // before building the message may clobber it
            fail("hwloc_topology_set_synthetic", err, "description \"" + description + "\"");
        }
    });
    return Impl::described(std::move(topo));
}

plexus_topology_summary_t Topology::summary() const {
    hwloc_topology_t t = impl_->topo.get();
    plexus_topology_summary_t s{};
    s.struct_size = sizeof s;
    s.packages = count(t, HWLOC_OBJ_PACKAGE);
    s.numa_nodes = count(t, HWLOC_OBJ_NUMANODE);
    s.cores = count(t, HWLOC_OBJ_CORE);
    s.pus = count(t, HWLOC_OBJ_PU);
    s.l1d_bytes = cache_bytes(t, HWLOC_OBJ_L1CACHE);
    s.l2_bytes = cache_bytes(t, HWLOC_OBJ_L2CACHE);
    s.l3_bytes = cache_bytes(t, HWLOC_OBJ_L3CACHE);
    s.cache_line_bytes = cache_line(t);
    // Node memory sizes are deliberately absent: hwloc misreports them on some VMs.
    const BitmapPtr where = impl_->where_we_run();
    s.self_numa_node = impl_->self_numa_node(where.get());
    // Against the PUs hwloc can use rather than the complete cpuset, so that offline or
    // cgroup-hidden PUs do not make an unbound process look bound.
    s.self_bound = !hwloc_bitmap_isincluded(hwloc_topology_get_topology_cpuset(t), where.get());
    return s;
}

std::string Topology::self_cpuset() const {
    return list_string(impl_->where_we_run().get());
}

int Topology::relation(const std::string &cpuset_a, const std::string &cpuset_b,
                       unsigned *shared) const {
    if (!shared) return -1;
    *shared = 0;
    hwloc_topology_t t = impl_->topo.get();
    const BitmapPtr a = parse_cpuset(t, cpuset_a);
    const BitmapPtr b = parse_cpuset(t, cpuset_b);
    if (!a || !b) return -1;
    BitmapPtr both = new_bitmap();
    hwloc_bitmap_or(both.get(), a.get(), b.get());

    static constexpr struct {
        hwloc_obj_type_t type;
        unsigned bit;
    } levels[] = {
        {HWLOC_OBJ_PU, PLEXUS_TOPO_SHARE_PU},
        {HWLOC_OBJ_CORE, PLEXUS_TOPO_SHARE_CORE},
        {HWLOC_OBJ_L2CACHE, PLEXUS_TOPO_SHARE_L2},
        {HWLOC_OBJ_L3CACHE, PLEXUS_TOPO_SHARE_L3},
        {HWLOC_OBJ_NUMANODE, PLEXUS_TOPO_SHARE_NUMA},
        {HWLOC_OBJ_PACKAGE, PLEXUS_TOPO_SHARE_PACKAGE},
    };
    unsigned bits = PLEXUS_TOPO_SHARE_MACHINE;
    for (const auto &level : levels)
        if (one_object_covers(t, level.type, both.get())) bits |= level.bit;
    *shared = bits;
    return 0;
}

}  // namespace plexus::runtime
