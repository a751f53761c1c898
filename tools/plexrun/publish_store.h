// PMIx_Publish / PMIx_Lookup / PMIx_Unpublish on plexrun's side: a store of published
// values keyed by name, remembering who published each, with lookups that wait
// (PMIX_WAIT) answered when the publish they wait for arrives, or when their time is up.
#pragma once

#include <functional>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "event_loop.h"
#include "upcalls.h"

namespace plexrun {

// One published value as it travels between plexruns: libpmix's packed form (pack_value).
struct FoundEntry {
    std::string key;
    ProcName publisher;
    std::vector<char> value;
};

class PublishStore {
public:
    explicit PublishStore(EventLoop &loop) : loop_(loop) {}

    // PMIX_ERR_DUPLICATE_KEY if any key is already published where this caller sees it.
    pmix_status_t publish(const ProcName &publisher, PublishRequest request);
    // Whether any of KEYS is published where PUBLISHER would see it (a publish of it would be a
    // duplicate). Nothing is taken.
    bool holds(const ProcName &publisher, const std::vector<std::string> &keys) const;
    // How many values are stored (tests and --verbose: what nobody read or withdrew).
    size_t size() const { return entries_.size(); }
    void lookup(const ProcName &requester, LookupRequest request, LookupDone done);
    // For lookups that span plexruns: how many of KEYS REQUESTER sees now, and what it sees of
    // them, taken as a lookup takes them (PMIX_PERSIST_FIRST_READ values go with the reading).
    size_t visible_count(const ProcName &requester, const std::vector<std::string> &keys) const;
    std::vector<FoundEntry> take_now(const ProcName &requester, const std::vector<std::string> &keys);
    // Called after every successful publish (the Launcher retries its spanning lookups).
    void on_publish(std::function<void()> hook) { on_publish_ = std::move(hook); }
    // No keys: everything the caller published.
    void unpublish(const ProcName &publisher, const std::vector<std::string> &keys);
    // The publisher ended: drop what it published with PMIX_PERSIST_PROC.
    void process_ended(const ProcName &proc);
    // The job ends: answer every lookup still waiting (before libpmix is finalised: the
    // answers go to it; lookups still waiting when the store is destroyed are dropped).
    void cancel_waiting();

private:
    struct Entry {
        ProcName publisher;
        OwnedValue value;
        pmix_data_range_t range;
        pmix_persistence_t persistence;
    };
    struct Waiting {
        ProcName requester;
        LookupRequest request;
        LookupDone done;
        EventLoop::TimerId timer = 0;
    };
    bool visible(const Entry &e, const ProcName &requester) const;
    // Answers W if it can be answered now (or FORCE: with whatever is there); true if answered.
    bool try_answer(Waiting &w, bool force, pmix_status_t status_if_none);
    void retry_waiting();

    EventLoop &loop_;
    std::multimap<std::string, Entry> entries_;  // by key
    std::list<Waiting> waiting_;
    std::function<void()> on_publish_;
};

}  // namespace plexrun
