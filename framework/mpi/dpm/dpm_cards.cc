// Cards to a blob and back, and into the runtime's cache.
#include "mpi/dpm/dpm_cards.h"

#include <cstdlib>
#include <cstring>

#include "mpi.h"
#include "mpi/dpm/dpm.h"
#include "runtime/runtime.h"

namespace plexus::mpi::dpm {
namespace {

constexpr const char *kKeyPrefix = "plexus.card.";
constexpr size_t kMaxCards = 256;  // components per process: far more than exist

void put_le(std::vector<uint8_t> &out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

bool get_le(const uint8_t *&p, const uint8_t *end, int bytes, uint64_t *v) {
    if (end - p < bytes) return false;
    *v = 0;
    for (int i = 0; i < bytes; ++i) *v |= uint64_t(p[i]) << (8 * i);
    p += bytes;
    return true;
}

}  // namespace

std::vector<uint8_t> pack_cards(const CardList &cards) {
    std::vector<uint8_t> out;
    put_le(out, cards.size(), 4);
    for (const auto &[key, card] : cards) {
        put_le(out, key.size(), 2);
        out.insert(out.end(), key.begin(), key.end());
        put_le(out, card.size(), 4);
        out.insert(out.end(), card.begin(), card.end());
    }
    return out;
}

bool unpack_cards(const void *blob, size_t len, CardList *out, std::string *why) {
    const auto *p = static_cast<const uint8_t *>(blob);
    const uint8_t *end = p + len;
    uint64_t n = 0;
    if (!blob || !get_le(p, end, 4, &n)) return *why = "shorter than its card count", false;
    if (n > kMaxCards) return *why = std::to_string(n) + " cards (at most " + std::to_string(kMaxCards) + ")", false;
    out->clear();
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t klen = 0, clen = 0;
        if (!get_le(p, end, 2, &klen) || uint64_t(end - p) < klen)
            return *why = "card " + std::to_string(i) + ": its key runs past the end", false;
        std::string key(reinterpret_cast<const char *>(p), klen);
        p += klen;
        if (key.compare(0, std::strlen(kKeyPrefix), kKeyPrefix) != 0 || key.size() == std::strlen(kKeyPrefix))
            return *why = "card " + std::to_string(i) + ": key '" + key + "' is no business card's", false;
        if (!get_le(p, end, 4, &clen) || uint64_t(end - p) < clen)
            return *why = "card " + std::to_string(i) + " (" + key + "): its data run past the end", false;
        out->emplace_back(std::move(key), std::vector<uint8_t>(p, p + clen));
        p += clen;
    }
    if (p != end) return *why = std::to_string(end - p) + " bytes after the last card", false;
    return true;
}

int own_cards(void **blob, size_t *len) {
    if (!blob || !len) return MPI_ERR_ARG;
    runtime::Runtime *rt = runtime::Runtime::current();
    if (!rt) return MPI_ERR_INTERN;
    const std::vector<uint8_t> packed = pack_cards(rt->modex().own_cards());
    *blob = std::malloc(packed.size());
    if (!*blob) return MPI_ERR_NO_MEM;
    std::memcpy(*blob, packed.data(), packed.size());
    *len = packed.size();
    return MPI_SUCCESS;
}

int provide_cards(const plexus_dpm_proc_t *proc, const void *blob, size_t len) {
    if (!proc || !proc->nspace || !*proc->nspace) return MPI_ERR_ARG;
    runtime::Runtime *rt = runtime::Runtime::current();
    if (!rt) return MPI_ERR_INTERN;
    const std::string where = std::string(proc->nspace) + ":" + std::to_string(proc->rank);
    // This job's cards come from its own fence (a join within one job offers them too): they
    // are known already, and nobody outside may replace them.
    if (rt->job().nspace == proc->nspace) return MPI_SUCCESS;
    CardList cards;
    std::string why;
    if (!unpack_cards(blob, len, &cards, &why)) {
        set_error("the business cards of " + where + " are malformed: " + why);
        return MPI_ERR_ARG;
    }
    for (auto &[key, card] : cards) rt->modex().remember({proc->nspace, proc->rank}, key, std::move(card));
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::dpm
