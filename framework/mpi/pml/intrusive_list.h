// A doubly linked list through next/prev pointers the elements carry, so that queueing a
// request or an unexpected message never allocates. Links are reached through a policy so that
// requests (whose links live in their pml section) and plain nodes share one list.
#pragma once

namespace plexus::mpi {

template <class T, class Links>
class IntrusiveList {
public:
    bool empty() const { return head_ == nullptr; }
    T *front() const { return head_; }
    static T *next(T *x) { return Links::next(x); }

    void push_back(T *x) {
        Links::next(x) = nullptr;
        Links::prev(x) = tail_;
        if (tail_) Links::next(tail_) = x;
        else head_ = x;
        tail_ = x;
    }
    void remove(T *x) {
        T *n = Links::next(x), *p = Links::prev(x);
        if (p) Links::next(p) = n;
        else head_ = n;
        if (n) Links::prev(n) = p;
        else tail_ = p;
        Links::next(x) = Links::prev(x) = nullptr;
    }
    T *pop_front() {
        T *x = head_;
        if (x) remove(x);
        return x;
    }

private:
    T *head_ = nullptr;
    T *tail_ = nullptr;
};

// Links of a struct with plain next/prev members.
template <class T>
struct MemberLinks {
    static T *&next(T *x) { return x->next; }
    static T *&prev(T *x) { return x->prev; }
};

}  // namespace plexus::mpi
