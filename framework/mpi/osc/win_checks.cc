// The checks of win_checks.h. The type signature is compared as run-length lists of basic
// types, so an array of a million doubles against a contiguous type of them costs one run.
#include "mpi/osc/win_checks.h"

#include <algorithm>
#include <string>

#include "mpi/datatype/derived_type.h"
#include "mpi/error_report.h"
#include "mpi/osc/win_error.h"

namespace plexus::mpi::osc {
namespace {

struct Run {
    const Datatype *basic;
    size_t n;
};
using Signature = std::vector<Run>;
// Beyond this many runs a signature is not followed further (a pathological struct); the
// comparison then rests on the sizes, which every call checks.
constexpr size_t kMaxRuns = 1 << 16;

void append(Signature *s, const Datatype *basic, size_t n) {
    if (n == 0) return;
    if (!s->empty() && s->back().basic == basic) s->back().n += n;
    else s->push_back({basic, n});
}

// Appends repeat items of t to s; false when the signature grew past kMaxRuns.
bool add(Signature *s, const Datatype &t, size_t repeat) {
    if (t.size == 0 || repeat == 0) return true;
    // Counted in items of the basic type (a pair type is one item), the same for both forms.
    if (t.predefined) return append(s, &t, repeat), true;
    if (const Datatype *basic = t.derived->basic; basic && basic->size)
        return append(s, basic, repeat * (t.size / basic->size)), true;
    if (t.derived->equivalent) return add(s, *t.derived->equivalent, repeat);
    const size_t start = s->size();
    for (const ChildRun &run : child_runs(t))
        if (!add(s, *run.type, run.repeat)) return false;
    // An item of several runs repeated: the runs again, each time (merged where they touch).
    const Signature one(s->begin() + static_cast<long>(start), s->end());
    for (size_t i = 1; i < repeat; ++i) {
        for (const Run &r : one) append(s, r.basic, r.n);
        if (s->size() > kMaxRuns) return false;
    }
    return s->size() <= kMaxRuns;
}

int win_error(const Win *win, int cls, const char *fmt, const char *function, const std::string &detail) {
    return report_win_errorf(win, cls, fmt, function, detail.c_str());
}

std::string bits_text(int bits) {
    static const char *names[] = {"MPI_MODE_NOCHECK", "MPI_MODE_NOPRECEDE", "MPI_MODE_NOPUT", "MPI_MODE_NOSTORE",
                                  "MPI_MODE_NOSUCCEED"};
    std::string t;
    for (int i = 0; i < 5; ++i)
        if (bits & (1 << i)) t += (t.empty() ? "" : "|") + std::string(names[i]);
    if (bits & ~31) t += (t.empty() ? "" : "|") + std::string("unknown bits ") + std::to_string(bits & ~31);
    return t.empty() ? "none" : t;
}

}  // namespace

bool same_signature(int count_a, const Datatype &a, int count_b, const Datatype &b, size_t *where) {
    *where = 0;
    Signature sa, sb;
    const bool followed = add(&sa, a, static_cast<size_t>(count_a)) && add(&sb, b, static_cast<size_t>(count_b));
    if (!followed) return true;  // too long to follow: the sizes decide
    size_t i = 0, j = 0, ia = 0, ib = 0;  // run index and position within it
    while (i < sa.size() && j < sb.size()) {
        if (sa[i].basic != sb[j].basic) return false;
        const size_t step = std::min(sa[i].n - ia, sb[j].n - ib);
        *where += step;
        ia += step, ib += step;
        if (ia == sa[i].n) ++i, ia = 0;
        if (ib == sb[j].n) ++j, ib = 0;
    }
    return i == sa.size() && j == sb.size();
}

int check_win(const char *function, const Win *win) {
    if (win_valid(win)) [[likely]]
        return MPI_SUCCESS;
    if (!win) return report_errorf(MPI_COMM_WORLD, MPI_ERR_WIN, "%s: invalid window: MPI_WIN_NULL", function);
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_WIN,
                         "%s: invalid window %p: not a window (freed already, or never made by MPI_Win_create)",
                         function, static_cast<const void *>(win));
}

int check_side(const char *function, const Win *win, const void *buf, int count, const Datatype *type,
               const char *side) {
    if (count < 0)
        return report_win_errorf(win, MPI_ERR_COUNT, "%s: invalid %s_count %d: must be >= 0", function, side, count);
    if (!datatype_valid(type)) {
        const char *what = !type ? "MPI_DATATYPE_NULL"
                           : datatype_exists(type) ? "a datatype not committed (MPI_Type_commit it first)"
                                                   : "not a datatype (freed, or never made by MPI)";
        return report_win_errorf(win, MPI_ERR_TYPE, "%s: invalid %s_datatype: %s", function, side, what);
    }
    if (!buf && count > 0 && type->predefined && side[0] == 'o')  // "origin"
        return report_win_errorf(win, MPI_ERR_BUFFER, "%s: origin_addr is NULL with %d items of %s", function, count,
                                 type_name(type).c_str());
    return MPI_SUCCESS;
}

int check_target(const char *function, const Win *win, int origin_count, const Datatype *origin_type, int rank,
                 MPI_Aint disp, int target_count, const Datatype *target_type) {
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= win->group_size()))
        return report_win_errorf(win, MPI_ERR_RANK,
                                 "%s: invalid target_rank %d: %s has %d processes (ranks 0..%d, or MPI_PROC_NULL)",
                                 function, rank, win_name(win).c_str(), win->group_size(), win->group_size() - 1);
    if (disp < 0)
        return report_win_errorf(win, MPI_ERR_DISP, "%s: invalid target_disp %td: must be >= 0", function, disp);
    if (int rc = check_side(function, win, nullptr, target_count, target_type, "target")) return rc;
    // The common case, the same type and count on both sides, needs no signature.
    if (origin_type == target_type && origin_count == target_count) [[likely]]
        return MPI_SUCCESS;
    const size_t origin_bytes = packed_bytes(origin_type, origin_count);
    const size_t target_bytes = packed_bytes(target_type, target_count);
    size_t where = 0;
    if (origin_bytes != target_bytes)
        return report_win_errorf(win, MPI_ERR_TYPE,
                                 "%s: the origin (%d x %s: %zu bytes) and the target (%d x %s: %zu bytes) do not have "
                                 "the same type signature",
                                 function, origin_count, type_name(origin_type).c_str(), origin_bytes, target_count,
                                 type_name(target_type).c_str(), target_bytes);
    if (!same_signature(origin_count, *origin_type, target_count, *target_type, &where))
        return report_win_errorf(win, MPI_ERR_TYPE,
                                 "%s: the origin (%d x %s) and the target (%d x %s) do not have the same type "
                                 "signature: their basic types differ at element %zu",
                                 function, origin_count, type_name(origin_type).c_str(), target_count,
                                 type_name(target_type).c_str(), where);
    return MPI_SUCCESS;
}

int check_accumulate_op(const char *function, const Win *win, const Op *op, const Datatype *origin_type,
                        const Datatype *target_type) {
    if (!op_valid(op))
        return report_win_errorf(win, MPI_ERR_OP, "%s: invalid op: %s", function,
                                 op ? "not an operation (freed, or never made by MPI)" : "MPI_OP_NULL");
    if (!op->predefined || op->kind == OpKind::User)
        return report_win_errorf(win, MPI_ERR_OP,
                                 "%s: op is a user operation (MPI_Op_create): MPI_Accumulate takes predefined "
                                 "operations only (MPI_SUM ... MPI_REPLACE)",
                                 function);
    std::string why;
    for (const Datatype *t : {origin_type, target_type})
        if (!op_allowed(*op, *t, &why)) return win_error(win, MPI_ERR_OP, "%s: %s", function, why);
    return MPI_SUCCESS;
}

int check_assert(const char *function, const Win *win, int assert_bits, int allowed) {
    if ((assert_bits & ~allowed) == 0) [[likely]]
        return MPI_SUCCESS;
    return report_win_errorf(win, MPI_ERR_ASSERT, "%s: invalid assert %d (%s): this call takes %s", function,
                             assert_bits, bits_text(assert_bits & ~allowed).c_str(),
                             allowed ? ("0 or " + bits_text(allowed)).c_str() : "0 only");
}

int check_lock_type(const char *function, const Win *win, int lock_type) {
    if (lock_type == MPI_LOCK_EXCLUSIVE || lock_type == MPI_LOCK_SHARED) return MPI_SUCCESS;
    return report_win_errorf(win, MPI_ERR_LOCKTYPE,
                             "%s: invalid lock_type %d: MPI_LOCK_EXCLUSIVE (%d) or MPI_LOCK_SHARED (%d)", function,
                             lock_type, MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED);
}

int check_lock_rank(const char *function, const Win *win, int rank) {
    if (rank >= 0 && rank < win->group_size()) return MPI_SUCCESS;
    return report_win_errorf(win, MPI_ERR_RANK, "%s: invalid rank %d: %s has %d processes (ranks 0..%d)", function,
                             rank, win_name(win).c_str(), win->group_size(), win->group_size() - 1);
}

int group_ranks(const char *function, const Win *win, const Group *group, std::vector<int> *ranks) {
    if (!group_valid(group))
        return report_win_errorf(win, MPI_ERR_GROUP, "%s: invalid group: %s", function,
                                 group ? "not a group (freed, or never made by MPI)" : "MPI_GROUP_NULL");
    ranks->clear();
    for (int i = 0; i < group->size(); ++i) {
        const int r = rank_of(win->comm->local_procs, group->procs[static_cast<size_t>(i)]);
        if (r == MPI_UNDEFINED)
            return report_win_errorf(win, MPI_ERR_GROUP, "%s: rank %d of group is not a process of %s", function, i,
                                     win_name(win).c_str());
        ranks->push_back(r);
    }
    std::sort(ranks->begin(), ranks->end());
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::osc
