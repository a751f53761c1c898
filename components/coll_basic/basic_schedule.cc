#include "basic_schedule.h"

namespace plexus::coll_basic {

Partition even_partition(int count, int n) {
    Partition p;
    p.count.resize(n);
    p.disp.resize(n);
    const int base = count / n, extra = count % n;
    int at = 0;
    for (int i = 0; i < n; ++i) {
        p.disp[i] = at;
        p.count[i] = base + (i < extra ? 1 : 0);
        at += p.count[i];
    }
    return p;
}

Partition folded_partition(const Fold &fold, const int counts[]) {
    Partition p;
    p.count.resize(fold.pof2);
    p.disp.resize(fold.pof2);
    int at = 0;
    for (int i = 0; i < fold.pof2; ++i) {
        const int old = fold.old_rank(i);
        const int c = i < fold.rem ? counts[old - 1] + counts[old] : counts[old];
        p.disp[i] = at;
        p.count[i] = c;
        at += c;
    }
    return p;
}

std::vector<int> bruck_round_slots(int n, int bit) {
    std::vector<int> slots;
    for (int i = 1; i < n; ++i)
        if (i & (1 << bit)) slots.push_back(i);
    return slots;
}

}  // namespace plexus::coll_basic
