// The dpm_ud component: dynamic processes whose two groups meet over the core's authenticated
// datagrams (README.md). It serves a process when the core has reliable datagrams and an
// endpoint opens on the interface it is given; otherwise it declines with the reason and
// dpm_pmix serves.
#include <plexus/component.h>
#include <plexus/dgram.h>
#include <plexus/dpm.h>
#include <plexus/sdk/descriptor.hpp>

#include <string>
#include <vector>

#include "address.h"
#include "ud_module.h"
#include "ud_params.h"

namespace {

// Above dpm_pmix (40): where datagrams reach the other job it serves spawn like dpm_pmix (the
// same PMIx_Spawn) and connect/accept without the job manager's name service and direct modex,
// which Slurm's PMIx lacks (README.md, "Selection").
constexpr int kPriority = 45;

const plexus_host_api_t *g_host = nullptr;
const plexus_component_t *g_self = nullptr;
plexus::dpm_ud::UdParams g_params;

// An endpoint opens here (the one opened to find out is closed at once), and it reaches every
// node of the job.
bool usable(std::string *why) {
    using namespace plexus::dpm_ud;
    const plexus_dgram_services_t *dg = g_host->dgram;
    if (dg->minor < 1) return *why = "the core's datagrams have no reliable layer (dgram 1.1)", false;
    Key key{};
    random_bytes(key.data(), key.size());
    plexus_dgram_open_args_t args{};
    args.struct_size = sizeof args;
    args.transport = PLEXUS_DGRAM_ANY;
    args.interface = g_params.interface && *g_params.interface ? g_params.interface : nullptr;
    args.key = key.data();
    args.key_len = key.size();
    args.label = "dpm_ud";
    plexus_dgram_endpoint_t *ep = nullptr;
    plexus_reason_t reason{};
    if (dg->open(&args, &ep, &reason) != PLEXUS_SUCCESS) return *why = reason.text, false;
    uint8_t bytes[PLEXUS_DGRAM_ADDR_MAX];
    size_t len = sizeof bytes;
    dg->address(ep, bytes, &len);
    dg->close(ep);
    const std::vector<uint8_t> address(bytes, bytes + len);
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    uint32_t ip = 0;
    uint16_t port = 0;
    const bool loopback = udp_parts(address, &ip, &port) && reinterpret_cast<const uint8_t *>(&ip)[0] == 127;
    if (loopback && g_host->job_info(&job) == PLEXUS_SUCCESS && job.local_size < job.size) {
        *why = "the job spans nodes but the datagram interface is loopback (" + address_text(address) +
               "): set dpm_ud_if or runtime_dgram_if to an interface every node reaches";
        return false;
    }
    return true;
}

struct DpmUd {
    static constexpr plexus::sdk::Identity identity{
        "plexus-dpm-ud", "BSD-3-Clause",
        "dynamic processes whose groups meet over datagrams (UD) or a root-to-root connection (RC)", {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus::dpm_ud::register_ud_params(host, self, &g_params);
    }

    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        if (!PLEXUS_HOST_HAS(host, job_info) || !PLEXUS_HOST_HAS(host, dgram) || !PLEXUS_HOST_HAS(host, progress_wait)) {
            plexus::sdk::set_reason(why, "the core's host API has no datagrams (host API 1.3 needed)");
            return PLEXUS_ERR_NOT_AVAILABLE;
        }
        g_host = host;
        g_self = self;
        return PLEXUS_SUCCESS;
    }

    static int close() {
        plexus::dpm_ud::destroy_module();
        return PLEXUS_SUCCESS;
    }

    static int query(const void *, plexus_query_result_t *result) {
        std::string why;
        if (!usable(&why)) {
            plexus::sdk::set_reason(&result->why, "%s", why.c_str());
            return PLEXUS_ERR_NOT_AVAILABLE;
        }
        return plexus::sdk::offer(result, kPriority, plexus::dpm_ud::create_module(g_host, g_self, &g_params));
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(dpm, ud, PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR, DpmUd);
