// Group constructors: argument checks, then the list work. Membership tests go through a hash
// set so that large groups stay linear.
#include "mpi/comm/group_ops.h"

#include <unordered_map>
#include <unordered_set>

namespace plexus::mpi {

namespace {

GroupOpResult fail(int error_class, std::string message) {
    GroupOpResult r;
    r.error_class = error_class;
    r.message = std::move(message);
    return r;
}

std::string valid_ranks(const ProcList &g) {
    return g.empty() ? "the group is empty" : "valid ranks are 0.." + std::to_string(g.size() - 1);
}

// The ranks of incl/excl: n within 0..size, each in range, none twice. Fills `marked`.
GroupOpResult check_rank_list(const ProcList &g, int n, const int ranks[], std::vector<bool> *marked) {
    const int size = static_cast<int>(g.size());
    if (n < 0 || n > size)
        return fail(MPI_ERR_ARG, "invalid n " + std::to_string(n) + ": it must be 0.." + std::to_string(size) +
                                     " (the group's size)");
    if (n > 0 && !ranks) return fail(MPI_ERR_ARG, "ranks is NULL with n " + std::to_string(n));
    marked->assign(g.size(), false);
    for (int i = 0; i < n; ++i) {
        const int r = ranks[i];
        if (r < 0 || r >= size)
            return fail(MPI_ERR_RANK, "invalid rank ranks[" + std::to_string(i) + "] = " + std::to_string(r) + ": " +
                                          valid_ranks(g));
        if ((*marked)[r])
            return fail(MPI_ERR_RANK, "rank " + std::to_string(r) + " appears twice in ranks (again at ranks[" +
                                          std::to_string(i) + "]): ranks must be distinct");
        (*marked)[r] = true;
    }
    return {};
}

// The ranks a list of (first, last, stride) triplets denotes, in order; each in range, none twice.
GroupOpResult expand_ranges(const ProcList &g, int n, const int ranges[][3], std::vector<int> *out,
                            std::vector<bool> *marked) {
    const int size = static_cast<int>(g.size());
    if (n < 0) return fail(MPI_ERR_ARG, "invalid n " + std::to_string(n) + ": the number of ranges is 0 or more");
    if (n > 0 && !ranges) return fail(MPI_ERR_ARG, "ranges is NULL with n " + std::to_string(n));
    marked->assign(g.size(), false);
    for (int i = 0; i < n; ++i) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        const std::string which = "ranges[" + std::to_string(i) + "] = (" + std::to_string(first) + ", " +
                                  std::to_string(last) + ", " + std::to_string(stride) + ")";
        if (stride == 0) return fail(MPI_ERR_ARG, "invalid " + which + ": the stride must not be 0");
        if (first < 0 || first >= size)
            return fail(MPI_ERR_RANK, "invalid " + which + ": first rank " + std::to_string(first) + " is out of range, " +
                                          valid_ranks(g));
        if (last < 0 || last >= size)
            return fail(MPI_ERR_RANK, "invalid " + which + ": last rank " + std::to_string(last) + " is out of range, " +
                                          valid_ranks(g));
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            return fail(MPI_ERR_ARG, "invalid " + which + ": the stride goes away from the last rank");
        for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if ((*marked)[r])
                return fail(MPI_ERR_RANK, "invalid " + which + ": rank " + std::to_string(r) +
                                              " is already in an earlier range; ranks must be distinct");
            (*marked)[r] = true;
            out->push_back(static_cast<int>(r));
        }
    }
    return {};
}

ProcList unmarked(const ProcList &g, const std::vector<bool> &marked) {
    ProcList out;
    for (size_t r = 0; r < g.size(); ++r)
        if (!marked[r]) out.push_back(g[r]);
    return out;
}

}  // namespace

GroupOpResult group_incl(const ProcList &g, int n, const int ranks[]) {
    std::vector<bool> marked;
    GroupOpResult r = check_rank_list(g, n, ranks, &marked);
    if (!r) return r;
    for (int i = 0; i < n; ++i) r.procs.push_back(g[ranks[i]]);
    return r;
}

GroupOpResult group_excl(const ProcList &g, int n, const int ranks[]) {
    std::vector<bool> marked;
    GroupOpResult r = check_rank_list(g, n, ranks, &marked);
    if (!r) return r;
    r.procs = unmarked(g, marked);
    return r;
}

GroupOpResult group_range_incl(const ProcList &g, int n, const int ranges[][3]) {
    std::vector<int> ranks;
    std::vector<bool> marked;
    GroupOpResult r = expand_ranges(g, n, ranges, &ranks, &marked);
    if (!r) return r;
    for (int rank : ranks) r.procs.push_back(g[rank]);
    return r;
}

GroupOpResult group_range_excl(const ProcList &g, int n, const int ranges[][3]) {
    std::vector<int> ranks;
    std::vector<bool> marked;
    GroupOpResult r = expand_ranges(g, n, ranges, &ranks, &marked);
    if (!r) return r;
    r.procs = unmarked(g, marked);
    return r;
}

ProcList group_union(const ProcList &a, const ProcList &b) {
    std::unordered_set<uint32_t> in_a(a.begin(), a.end());
    ProcList out = a;
    for (uint32_t p : b)
        if (!in_a.count(p)) out.push_back(p);
    return out;
}

ProcList group_intersection(const ProcList &a, const ProcList &b) {
    std::unordered_set<uint32_t> in_b(b.begin(), b.end());
    ProcList out;
    for (uint32_t p : a)
        if (in_b.count(p)) out.push_back(p);
    return out;
}

ProcList group_difference(const ProcList &a, const ProcList &b) {
    std::unordered_set<uint32_t> in_b(b.begin(), b.end());
    ProcList out;
    for (uint32_t p : a)
        if (!in_b.count(p)) out.push_back(p);
    return out;
}

GroupOpResult group_translate(const ProcList &a, int n, const int ranks[], const ProcList &b, int out[]) {
    if (n < 0) return fail(MPI_ERR_ARG, "invalid n " + std::to_string(n) + ": the number of ranks is 0 or more");
    if (n > 0 && (!ranks || !out)) return fail(MPI_ERR_ARG, std::string(ranks ? "ranks2" : "ranks1") + " is NULL with n " + std::to_string(n));
    const int size = static_cast<int>(a.size());
    for (int i = 0; i < n; ++i)
        if (ranks[i] != MPI_PROC_NULL && (ranks[i] < 0 || ranks[i] >= size))
            return fail(MPI_ERR_RANK, "invalid rank ranks1[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                                          " in group1: " + valid_ranks(a) + " or MPI_PROC_NULL");
    std::unordered_map<uint32_t, int> rank_in_b;
    rank_in_b.reserve(b.size());
    for (size_t r = 0; r < b.size(); ++r) rank_in_b.emplace(b[r], static_cast<int>(r));
    for (int i = 0; i < n; ++i) {
        if (ranks[i] == MPI_PROC_NULL) {
            out[i] = MPI_PROC_NULL;
            continue;
        }
        const auto it = rank_in_b.find(a[ranks[i]]);
        out[i] = it == rank_in_b.end() ? MPI_UNDEFINED : it->second;
    }
    return {};
}

int group_compare(const ProcList &a, const ProcList &b) {
    if (a == b) return MPI_IDENT;
    if (a.size() != b.size()) return MPI_UNEQUAL;
    std::unordered_set<uint32_t> in_a(a.begin(), a.end());
    for (uint32_t p : b)
        if (!in_a.count(p)) return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

}  // namespace plexus::mpi
