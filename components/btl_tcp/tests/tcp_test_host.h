// The fake host API of btl_tcp's unit tests: one job "testjob" whose ranks are modules in this
// process (the rank is whoever opens now), cards in a map, the job secret chosen per open (so a
// stranger with another secret is one open away), the secrets shared with other jobs' processes
// in a map, and abort recorded instead of ending the test.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "components/btl_tcp/tcp_module.h"
#include "framework/mca/host_api.h"

namespace tcp_test {

inline uint32_t g_rank = 0;
inline uint32_t g_size = 2;
inline std::string g_nspace = "testjob";
inline uint8_t g_secret[PLEXUS_JOB_SECRET_LEN] = {1, 2, 3, 4, 5, 6, 7, 8};
inline int g_local = 1;  // what proc_on_this_node answers (PLEXUS_ERR_NOT_FOUND: ask the card)
inline std::map<std::pair<std::string, uint32_t>, std::vector<uint8_t>> g_cards;
// What peer_secrets answers (host API 1.6), by the peer asked about, newest first.
inline std::map<std::pair<std::string, uint32_t>, std::vector<std::vector<uint8_t>>> g_peer_secrets;
inline std::vector<std::string> g_log;
inline std::vector<std::pair<int, std::string>> g_aborts;
// Log and abort may be called by modules progressed on threads of their own (a rank whose first
// send waits for a peer that another thread progresses); the tests read both after joining them.
inline std::mutex g_record_mutex;

inline void fake_log(const plexus_component_t *, int level, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::lock_guard<std::mutex> lock(g_record_mutex);
    g_log.emplace_back(buf);
    if (std::getenv("BTL_TCP_TEST_VERBOSE")) std::fprintf(stderr, "[tcp %d] %s\n", level, buf);
}
inline int fake_verbosity(const plexus_component_t *) { return 100; }
inline int fake_progress_register(plexus_progress_fn_t, void *) { return PLEXUS_SUCCESS; }
inline int fake_job_info(plexus_job_info_t *out) {
    plexus_job_info_t j{};
    j.struct_size = out->struct_size;
    j.rank = g_rank;
    j.size = g_size;
    j.local_rank = g_rank;
    j.local_size = g_size;
    std::snprintf(j.nspace, sizeof j.nspace, "%s", g_nspace.c_str());
    *out = j;
    return PLEXUS_SUCCESS;
}
inline int fake_secret(uint8_t *buf, size_t len) {
    if (len < PLEXUS_JOB_SECRET_LEN) return PLEXUS_ERR_BAD_PARAM;
    std::memcpy(buf, g_secret, PLEXUS_JOB_SECRET_LEN);
    return PLEXUS_SUCCESS;
}
inline int fake_modex_put(const plexus_component_t *, const void *data, size_t len) {
    const auto *b = static_cast<const uint8_t *>(data);
    g_cards[{g_nspace, g_rank}].assign(b, b + len);
    return PLEXUS_SUCCESS;
}
inline int fake_modex_get(const plexus_component_t *, const char *nspace, uint32_t rank, const void **data,
                          size_t *len, int) {
    auto it = g_cards.find({nspace ? nspace : g_nspace, rank});
    if (it == g_cards.end()) return PLEXUS_ERR_NOT_FOUND;
    *data = it->second.data();
    *len = it->second.size();
    return PLEXUS_SUCCESS;
}
inline int fake_peer_secrets(const char *nspace, uint32_t rank, uint8_t *buf, size_t max, size_t *count) {
    *count = 0;
    auto it = g_peer_secrets.find({nspace, rank});
    if (it == g_peer_secrets.end() || it->second.empty()) return PLEXUS_ERR_NOT_FOUND;
    *count = it->second.size();
    for (size_t i = 0; i < it->second.size() && i < max; ++i)
        std::memcpy(buf + i * PLEXUS_PEER_SECRET_LEN, it->second[i].data(), PLEXUS_PEER_SECRET_LEN);
    return PLEXUS_SUCCESS;
}
inline void fake_abort(int status, const char *msg) {
    std::lock_guard<std::mutex> lock(g_record_mutex);
    g_aborts.emplace_back(status, msg ? msg : "");
}
inline int fake_on_node(const char *, uint32_t) { return g_local; }
// The machine's interfaces as the core lists them (host API 1.5): the real lookup.
inline int real_interfaces(plexus_ipv4_interface_t *out, size_t max, size_t *count) {
    return plexus::mca::host_api_table()->ipv4_interfaces(out, max, count);
}

inline plexus_host_api_t make_host() {
    plexus_host_api_t h{};
    h.struct_size = sizeof h;
    h.major = PLEXUS_HOST_API_MAJOR;
    h.minor = PLEXUS_HOST_API_MINOR;
    h.log = fake_log;
    h.verbosity = fake_verbosity;
    h.progress_register = fake_progress_register;
    h.progress_unregister = fake_progress_register;
    h.job_info = fake_job_info;
    h.job_secret = fake_secret;
    h.modex_put = fake_modex_put;
    h.modex_get = fake_modex_get;
    h.abort = fake_abort;
    h.proc_on_this_node = fake_on_node;
    h.ipv4_interfaces = real_interfaces;
    h.peer_secrets = fake_peer_secrets;
    return h;
}
inline const plexus_host_api_t kHost = make_host();

inline void reset() {
    g_rank = 0;
    g_size = 2;
    g_nspace = "testjob";
    g_local = 1;
    std::memset(g_secret, 0, sizeof g_secret);
    for (size_t i = 0; i < sizeof g_secret; ++i) g_secret[i] = static_cast<uint8_t>(i * 7 + 1);
    g_cards.clear();
    g_peer_secrets.clear();
    g_log.clear();
    g_aborts.clear();
}

inline bool logged(const std::string &needle) {
    for (const auto &l : g_log)
        if (l.find(needle) != std::string::npos) return true;
    return false;
}

}  // namespace tcp_test
