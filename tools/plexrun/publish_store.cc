// The publish/lookup store.
#include "publish_store.h"

#include <algorithm>

#include "trace.h"

namespace plexrun {

// One node, one session: every range reaches everyone except the two narrow ones.
bool PublishStore::visible(const Entry &e, const ProcName &requester) const {
    switch (e.range) {
        case PMIX_RANGE_PROC_LOCAL: return e.publisher == requester;
        case PMIX_RANGE_NAMESPACE: return e.publisher.nspace == requester.nspace;
        default: return true;
    }
}

bool PublishStore::holds(const ProcName &publisher, const std::vector<std::string> &keys) const {
    return visible_count(publisher, keys) > 0;
}

pmix_status_t PublishStore::publish(const ProcName &publisher, PublishRequest request) {
    for (auto &[key, value] : request.entries) {
        auto [first, last] = entries_.equal_range(key);
        for (auto it = first; it != last; ++it)
            if (visible(it->second, publisher)) return PMIX_ERR_DUPLICATE_KEY;
    }
    for (auto &[key, value] : request.entries) {
        trace("publish %s by %s:%u", key.c_str(), publisher.nspace.c_str(), publisher.rank);
        entries_.emplace(key,
                         Entry{publisher, std::move(value), request.range, request.persistence});
    }
    retry_waiting();
    if (on_publish_) on_publish_();
    return PMIX_SUCCESS;
}

void PublishStore::lookup(const ProcName &requester, LookupRequest request, LookupDone done) {
    waiting_.push_back(Waiting{requester, std::move(request), std::move(done)});
    Waiting &w = waiting_.back();
    bool waits = w.request.wait_for >= 0;
    if (try_answer(w, !waits, PMIX_ERR_NOT_FOUND)) {
        waiting_.pop_back();
        return;
    }
    trace("lookup by %s:%u waits for %s", requester.nspace.c_str(), requester.rank,
          w.request.keys.empty() ? "-" : w.request.keys[0].c_str());
    if (w.request.timeout_seconds > 0) {
        auto it = std::prev(waiting_.end());
        w.timer = loop_.after(std::chrono::seconds(w.request.timeout_seconds), [this, it] {
            it->timer = 0;
            try_answer(*it, true, PMIX_ERR_TIMEOUT);
            waiting_.erase(it);
        });
    }
}

bool PublishStore::try_answer(Waiting &w, bool force, pmix_status_t status_if_none) {
    std::vector<std::multimap<std::string, Entry>::iterator> found;
    for (const std::string &key : w.request.keys) {
        auto [first, last] = entries_.equal_range(key);
        auto it =
            std::find_if(first, last, [&](auto &kv) { return visible(kv.second, w.requester); });
        if (it != last && std::find(found.begin(), found.end(), it) == found.end())
            found.push_back(it);
    }
    size_t needed =
        w.request.wait_for > 0 ? static_cast<size_t>(w.request.wait_for) : w.request.keys.size();
    if (!force && found.size() < std::min(needed, w.request.keys.size())) return false;
    if (w.timer) loop_.cancel(w.timer);
    if (found.empty()) {
        w.done(status_if_none, nullptr, 0);
        return true;
    }
    pmix_pdata_t *data;
    PMIX_PDATA_CREATE(data, found.size());
    for (size_t i = 0; i < found.size(); ++i) {
        const Entry &e = found[i]->second;
        data[i].proc = e.publisher.to_pmix();
        PMIX_LOAD_KEY(data[i].key, found[i]->first.c_str());
        PMIx_Value_xfer(&data[i].value, &e.value.get());
    }
    // libpmix packs the answer before the callback returns.
    w.done(PMIX_SUCCESS, data, found.size());
    PMIX_PDATA_FREE(data, found.size());
    for (auto it : found)
        if (it->second.persistence == PMIX_PERSIST_FIRST_READ) entries_.erase(it);
    return true;
}

size_t PublishStore::visible_count(const ProcName &requester, const std::vector<std::string> &keys) const {
    size_t n = 0;
    for (const std::string &key : keys) {
        auto [first, last] = entries_.equal_range(key);
        n += std::any_of(first, last, [&](auto &kv) { return visible(kv.second, requester); });
    }
    return n;
}

std::vector<FoundEntry> PublishStore::take_now(const ProcName &requester, const std::vector<std::string> &keys) {
    std::vector<FoundEntry> out;
    for (const std::string &key : keys) {
        auto [first, last] = entries_.equal_range(key);
        auto it = std::find_if(first, last, [&](auto &kv) { return visible(kv.second, requester); });
        if (it == last) continue;
        out.push_back(FoundEntry{key, it->second.publisher, pack_value(it->second.value.get())});
        if (it->second.persistence == PMIX_PERSIST_FIRST_READ) entries_.erase(it);
    }
    return out;
}

void PublishStore::retry_waiting() {
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        if (try_answer(*it, false, PMIX_ERR_NOT_FOUND))
            it = waiting_.erase(it);
        else
            ++it;
    }
}

void PublishStore::unpublish(const ProcName &publisher, const std::vector<std::string> &keys) {
    for (auto it = entries_.begin(); it != entries_.end();) {
        bool named = keys.empty() || std::find(keys.begin(), keys.end(), it->first) != keys.end();
        if (named && it->second.publisher == publisher) {
            trace("unpublish %s by %s:%u", it->first.c_str(), publisher.nspace.c_str(), publisher.rank);
            it = entries_.erase(it);
        } else {
            ++it;
        }
    }
}

void PublishStore::process_ended(const ProcName &proc) {
    for (auto it = entries_.begin(); it != entries_.end();) {
        if (it->second.publisher == proc && it->second.persistence == PMIX_PERSIST_PROC)
            it = entries_.erase(it);
        else
            ++it;
    }
}

void PublishStore::cancel_waiting() {
    for (Waiting &w : waiting_) try_answer(w, true, PMIX_ERR_TIMEOUT);
    waiting_.clear();
}

}  // namespace plexrun
