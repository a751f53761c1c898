// Reduce along the binomial tree in segments: a process combines segment s of its children's
// partial results while segment s + 1 is still arriving, and sends segment s up before it starts
// on s + 1, so a large reduction flows through the tree instead of waiting at each level for
// whole vectors. Same tree and operand order as reduce_binomial (intra_reduce.cc).
#include <algorithm>
#include <vector>

#include "basic_intra.h"

namespace plexus::coll_basic {
namespace {

// Receives posted ahead of the segment being combined, and sends left in flight behind it.
constexpr int kLookahead = 2;

// The binomial tree around one process, in absolute ranks; children in the order their partial
// results are combined (the nearest first, as reduce_binomial).
struct Tree {
    int parent = -1;
    std::vector<int> children;
};

Tree binomial_tree(const Ctx &c, int tree_root) {
    Tree t;
    const int rel = c.relative(tree_root);
    for (int mask = 1; mask < c.size; mask <<= 1) {
        if (rel & mask) {
            t.parent = c.absolute(rel - mask, tree_root);
            break;
        }
        if ((rel | mask) < c.size) t.children.push_back(c.absolute(rel | mask, tree_root));
    }
    return t;
}

// Requests of one call, completed before its buffers go (also when a step fails).
class Pending {
public:
    Pending(const Ctx &c, size_t n) : c_(c), reqs_(n, nullptr) {}
    ~Pending() { (void)c_.svc->waitall(static_cast<int>(reqs_.size()), reqs_.data()); }
    Pending(const Pending &) = delete;
    Pending &operator=(const Pending &) = delete;
    plexus_coll_request_t **at(size_t i) { return &reqs_[i]; }
    int wait(size_t i) { return c_.svc->wait(&reqs_[i]); }

private:
    const Ctx &c_;
    std::vector<plexus_coll_request_t *> reqs_;
};

}  // namespace

int reduce_binomial_segmented(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                              plexus_coll_op_t *op, int root, int segment) {
    const bool commute = c.svc->op_commutative(op) != 0;
    const int tree_root = commute ? root : 0;
    const Tree tree = binomial_tree(c, tree_root);
    const int k = static_cast<int>(tree.children.size());
    const int nseg = (count + segment - 1) / segment;
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    // One buffer per child: child j's segments arrive into it and are combined there, so the
    // receives of later segments never wait for a buffer. The last child's is the result where
    // the tree ends at the root.
    std::vector<TempBuffer> temps(static_cast<size_t>(k));
    std::vector<char *> into(static_cast<size_t>(k));
    const bool result_is_last = c.rank == root && tree.parent < 0 && result != input;
    for (int j = 0; j < k; ++j) {
        if (j == k - 1 && result_is_last) {
            into[j] = static_cast<char *>(result);
        } else {
            if (!temps[j].allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
            into[j] = temps[j].data();
        }
    }
    auto first = [&](int s) { return static_cast<long>(s) * segment; };
    auto items = [&](int s) { return std::min(segment, count - s * segment); };
    Pending recvs(c, static_cast<size_t>(k) * nseg), sends(c, static_cast<size_t>(nseg));
    auto post = [&](int s) -> int {
        for (int j = 0; j < k; ++j)
            BASIC_TRY(c.irecv(l.at(into[j], first(s)), items(s), t, tree.children[j], recvs.at(j * nseg + s)));
        return 0;
    };
    for (int s = 0; s < std::min(kLookahead, nseg); ++s) BASIC_TRY(post(s));
    const void *partial = input;
    for (int s = 0; s < nseg; ++s) {
        if (s + kLookahead < nseg) BASIC_TRY(post(s + kLookahead));
        const char *part = l.at(input, first(s));
        for (int j = 0; j < k; ++j) {
            BASIC_TRY(recvs.wait(j * nseg + s));
            char *mine = l.at(into[j], first(s));
            BASIC_TRY(c.reduce_local(op, part, mine, items(s), t));  // my ranks first: left operand
            part = mine;
        }
        if (tree.parent < 0) continue;
        if (s >= kLookahead) BASIC_TRY(sends.wait(s - kLookahead));
        BASIC_TRY(c.isend(part, items(s), t, tree.parent, sends.at(s)));
    }
    if (k > 0) partial = into[k - 1];
    if (tree.parent >= 0) {  // sent; the root of a tree rooted at 0 gets the result from rank 0
        for (int s = 0; s < nseg; ++s) BASIC_TRY(sends.wait(s));
        return c.rank == root ? c.recv(result, count, t, tree_root) : 0;
    }
    if (c.rank == root) return partial == result ? 0 : c.copy(partial, result, count, t);
    return c.send(partial, count, t, root);
}

}  // namespace plexus::coll_basic
