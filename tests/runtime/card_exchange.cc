// Multi-process test of the runtime under a launcher: every rank puts business cards, the init
// fence commits them, and every rank fetches every peer's cards and checks them byte for byte,
// which also proves the ranks agree on the job secret (each card carries its writer's view of
// it). With --abort the last rank aborts the job with status 7 instead. With --spawn, rank 0 also
// spawns two children that exchange cards among themselves, find
// their parent, fetch its card across namespaces, and report back through publish/lookup.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/runtime.h"

using namespace plexus::runtime;

namespace {

constexpr int kTimeoutMs = 30000;

int g_failures = 0;
std::string g_me = "card_exchange";

void fail(const std::string &what) {
    std::fprintf(stderr, "%s: FAIL: %s\n", g_me.c_str(), what.c_str());
    ++g_failures;
}

bool check(const Status &s, const std::string &what) {
    if (!s) fail(what + ": " + s.message);
    return s.is_ok();
}

// A deterministic payload that differs per writer and component, with zero bytes in it and a
// length that varies from one writer to the next (up to a few KiB).
std::vector<uint8_t> payload(const ProcId &who, const std::string &component) {
    uint32_t x = 2166136261u;
    for (char c : who.nspace + "/" + component) x = (x ^ static_cast<uint8_t>(c)) * 16777619u;
    x ^= who.rank * 2654435761u;
    std::vector<uint8_t> out(1 + (x % 4000) + who.rank);
    for (auto &b : out) {
        x = x * 1103515245u + 12345u;
        b = static_cast<uint8_t>(x >> 16);
    }
    return out;
}

// "<nspace>:<rank>:<secret hex>:" + payload.
std::vector<uint8_t> card_of(const ProcId &who, const std::string &secret_hex, const std::string &component) {
    std::string head = who.nspace + ":" + std::to_string(who.rank) + ":" + secret_hex + ":";
    std::vector<uint8_t> card(head.begin(), head.end());
    auto p = payload(who, component);
    card.insert(card.end(), p.begin(), p.end());
    return card;
}

std::string secret_hex(Runtime &rt) {
    JobSecret s;
    return check(rt.secret(&s), "job secret") ? s.hex() : std::string(64, '?');
}

void put_card(Runtime &rt, const char *component, const std::string &secret) {
    auto card = card_of(rt.job().self(), secret, component);
    check(rt.modex().put(component, card.data(), card.size()), std::string("put card ") + component);
}

// Fetches peer's card of component and compares it with what peer must have put.
bool verify_card(Runtime &rt, const ProcId &peer, const char *component, const std::string &secret) {
    const Modex::Card *got = nullptr;
    const std::string what = std::string(component) + " card of " + peer.nspace + ":" + std::to_string(peer.rank);
    if (!check(rt.modex().get(peer, component, kTimeoutMs / 1000, &got), "get " + what)) return false;
    if (*got == card_of(peer, secret, component)) return true;
    std::string head(got->begin(), got->begin() + std::min<size_t>(got->size(), 100));
    fail(what + " differs (" + std::to_string(got->size()) + " bytes, starts '" + head + "')");
    return false;
}

// The secret a card of another job carries (after "<nspace>:<rank>:").
std::string secret_in_card(Runtime &rt, const ProcId &peer, const char *component) {
    const Modex::Card *got = nullptr;
    if (!rt.modex().get(peer, component, kTimeoutMs / 1000, &got)) return "";
    std::string text(got->begin(), got->end());
    const std::string start = peer.nspace + ":" + std::to_string(peer.rank) + ":";
    return text.rfind(start, 0) == 0 ? text.substr(start.size(), 64) : "";
}

void check_job_info(const JobInfo &j) {
    if (j.rank >= j.size) fail("rank " + std::to_string(j.rank) + " >= size " + std::to_string(j.size));
    if (j.nspace.empty()) fail("empty namespace");
    if (j.local_peers.size() != j.local_size) fail("local_size differs from the local peer count");
    bool found = false;
    for (uint32_t p : j.local_peers) found |= p == j.rank;
    if (!found) fail("this rank is not among its local peers");
    if (j.local_rank >= j.local_size) fail("local rank out of range");
}

// A card nobody put is an error within the timeout, not a hang.
void check_missing_card_times_out(Runtime &rt) {
    const ProcId peer{rt.job().nspace, (rt.job().rank + 1) % rt.job().size};
    const Modex::Card *got = nullptr;
    const auto start = std::chrono::steady_clock::now();
    Status s = rt.modex().get(peer, "none_test", 1, &got);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s) fail("a card nobody put was found");
    if (took > 5) fail("a missing card took " + std::to_string(took) + " s to fail with a 1 s timeout");
    if (rt.job().rank == 0) std::printf("%s: missing card: %s after %.3f s\n", g_me.c_str(), s.message.c_str(), took);
}

// Every rank of this job. btl_test is put before the init fence, which commits it (the normal
// path); coll_test after it, carrying this rank's view of the job secret, which some ranks only
// learn at that fence: it is committed at once, and proves every rank holds the same secret.
void exchange_within_job(Runtime &rt) {
    check_job_info(rt.job());
    put_card(rt, "btl_test", "");
    JobSecret early;
    const bool known_early = rt.secret(&early).is_ok();
    if (!check(rt.fence_init(), "init fence")) return;
    const std::string secret = secret_hex(rt);
    if (known_early && early.hex() != secret) fail("the secret changed at the init fence");
    put_card(rt, "coll_test", secret);
    check(rt.fence(), "fence after the late puts");
    int verified = 0;
    for (uint32_t r = 0; r < rt.job().size; ++r) {
        const ProcId peer{rt.job().nspace, r};
        verified += verify_card(rt, peer, "btl_test", "");
        verified += verify_card(rt, peer, "coll_test", secret);
    }
    std::printf("%s: verified %d cards of %u ranks, shm prefix plexus-%s-\n", g_me.c_str(), verified,
                rt.job().size, secret.substr(0, 16).c_str());
    check_missing_card_times_out(rt);
}

std::string done_key(const ProcId &child) { return "card_exchange.done." + child.nspace + "." + std::to_string(child.rank); }
// Published by the parent once it has read the children's cards. A job that has ended may be
// forgotten by the launcher (plexrun drops it from libpmix), so the children stay until then.
std::string checked_key(const std::string &child_ns) { return "card_exchange.checked." + child_ns; }

int run_child(Runtime &rt) {
    const JobInfo &j = rt.job();
    if (!j.parent) {
        fail("spawned child without PMIX_PARENT_ID");
        return 1;
    }
    if (j.size != 2) fail("child job has size " + std::to_string(j.size) + ", expected 2");
    exchange_within_job(rt);
    // The parent's cards cross namespaces (direct modex through the server).
    verify_card(rt, *j.parent, "btl_test", "");
    verify_card(rt, *j.parent, "coll_test", secret_in_card(rt, *j.parent, "coll_test"));
    check(rt.publish(done_key(j.self()), g_failures == 0 ? "ok" : "failed"), "publish done");
    std::string ignored;
    check(rt.lookup(checked_key(j.nspace), true, kTimeoutMs, &ignored), "lookup " + checked_key(j.nspace));
    check(rt.fence(), "children's last fence");
    return 0;
}

// This very program, by the path the kernel knows (argv[0] may be relative to another cwd).
std::string self_path() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "card_exchange";
}

void spawn_children(Runtime &rt) {
    SpawnRequest r;
    r.command = self_path();
    r.argv = {r.command, "--child"};
    r.maxprocs = 2;
    std::string child_ns;
    if (!check(rt.spawn(r, &child_ns), "spawn")) return;
    std::printf("%s: spawned 2 children as %s\n", g_me.c_str(), child_ns.c_str());
    for (uint32_t c = 0; c < 2; ++c) {
        std::string status;
        const ProcId child{child_ns, c};
        if (!check(rt.lookup(done_key(child), true, kTimeoutMs, &status), "lookup " + done_key(child))) continue;
        if (status != "ok") fail("child " + std::to_string(c) + " reported " + status);
        // Its cards, of another job with another secret, which the card itself carries.
        verify_card(rt, child, "btl_test", "");
        const std::string child_secret = secret_in_card(rt, child, "coll_test");
        if (child_secret == secret_hex(rt)) fail("the children's job has the parent's secret");
        verify_card(rt, child, "coll_test", child_secret);
    }
    check(rt.publish(checked_key(child_ns), "yes"), "publish " + checked_key(child_ns));
}

}  // namespace

int main(int argc, char **argv) {
    const bool child = argc > 1 && std::strcmp(argv[1], "--child") == 0;
    const bool spawn = argc > 1 && std::strcmp(argv[1], "--spawn") == 0;
    const bool abort = argc > 1 && std::strcmp(argv[1], "--abort") == 0;
    RuntimeSession rt;
    if (!rt.status()) {
        std::fprintf(stderr, "card_exchange: FAIL: runtime init: %s\n", rt.status().message.c_str());
        return 1;
    }
    g_me = std::string(child ? "child " : "rank ") + rt->job().nspace + ":" + std::to_string(rt->job().rank);
    if (abort && rt->job().rank == rt->job().size - 1) rt->abort(7, "card_exchange was told to abort");
    if (child) {
        run_child(*rt);
    } else {
        exchange_within_job(*rt);
        if (spawn && rt->job().rank == 0) spawn_children(*rt);
        check(rt->fence(), "last fence");
    }
    if (g_failures == 0) std::printf("%s: OK\n", g_me.c_str());
    return g_failures == 0 ? 0 : 1;
}
