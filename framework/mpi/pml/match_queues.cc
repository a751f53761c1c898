// Matching in MPI order over per-source queues.
#include "mpi/pml/match_queues.h"

#include "mpi.h"

namespace plexus::mpi {

namespace {

bool tag_matches(int want, int tag) { return want == tag || (want == MPI_ANY_TAG && tag >= 0); }

template <class List, class Pred>
auto *first_in(const List &list, Pred pred) {
    auto *x = list.front();
    while (x && !pred(x)) x = List::next(x);
    return x;
}

// Posting numbers wrap; the difference says which came first.
bool posted_before(const Request *a, const Request *b) {
    return static_cast<int32_t>(a->pml.seq - b->pml.seq) < 0;
}

}  // namespace

ContextQueues::Source *ContextQueues::source(int rank) {
    if (rank < 0) return nullptr;
    if (static_cast<size_t>(rank) >= sources_.size()) sources_.resize(static_cast<size_t>(rank) + 1);
    return &sources_[static_cast<size_t>(rank)];
}

Unexpected *ContextQueues::first_unexpected(int src, int tag) {
    if (unexpected_count_ == 0) return nullptr;
    auto wanted = [tag](const Unexpected *u) { return tag_matches(tag, u->tag); };
    if (src != MPI_ANY_SOURCE) {
        Source *s = source(src);
        return s ? first_in(s->unexpected, wanted) : nullptr;
    }
    Unexpected *best = nullptr;
    for (Source &s : sources_) {
        Unexpected *u = first_in(s.unexpected, wanted);
        if (u && (!best || u->arrival < best->arrival)) best = u;
    }
    return best;
}

Unexpected *ContextQueues::take_or_post(Request *r) {
    if (Unexpected *u = first_unexpected(r->peer, r->tag)) {
        sources_[static_cast<size_t>(u->source)].unexpected.remove(u);
        --unexpected_count_;
        return u;
    }
    r->pml.seq = next_post_++;
    if (r->peer == MPI_ANY_SOURCE) posted_any_.push_back(r);
    else source(r->peer)->posted.push_back(r);
    return nullptr;
}

Request *ContextQueues::match(int src, int tag) {
    auto wants = [tag](const Request *r) { return tag_matches(r->tag, tag); };
    Source *s = source(src);
    if (!s) return nullptr;
    Request *specific = first_in(s->posted, wants);
    Request *wild = posted_any_.empty() ? nullptr : first_in(posted_any_, wants);
    if (wild && (!specific || posted_before(wild, specific))) {
        posted_any_.remove(wild);
        return wild;
    }
    if (specific) s->posted.remove(specific);
    return specific;
}

void ContextQueues::keep(Unexpected *u) {
    Source *s = source(u->source);
    if (!s) return;  // a negative source is not from a Plexus PML; match() already refused it
    u->arrival = next_arrival_++;
    s->unexpected.push_back(u);
    ++unexpected_count_;
}

Unexpected *ContextQueues::peek(int src, int tag) { return first_unexpected(src, tag); }

bool ContextQueues::unpost(Request *r) {
    RequestList *list = &posted_any_;
    if (r->peer != MPI_ANY_SOURCE) {
        Source *s = source(r->peer);
        if (!s) return false;
        list = &s->posted;
    }
    for (Request *x = list->front(); x; x = RequestList::next(x)) {
        if (x == r) {
            list->remove(r);
            return true;
        }
    }
    return false;
}

Unexpected *ContextQueues::withdraw(int src, uint32_t proc, uint32_t seq) {
    Source *s = unexpected_count_ ? source(src) : nullptr;
    if (!s) return nullptr;
    Unexpected *u = first_in(s->unexpected, [proc, seq](const Unexpected *x) { return x->proc == proc && x->seq == seq; });
    if (!u) return nullptr;
    s->unexpected.remove(u);
    --unexpected_count_;
    return u;
}

Unexpected *ContextQueues::pop_unexpected() {
    for (Source &s : sources_) {
        if (Unexpected *u = s.unexpected.pop_front()) {
            --unexpected_count_;
            return u;
        }
    }
    return nullptr;
}

}  // namespace plexus::mpi
