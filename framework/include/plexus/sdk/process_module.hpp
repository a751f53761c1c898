// The one module of a process-wide component (a BTL): made and opened in open(), offered by
// every query(), destroyed in close() or when open() fails half-way.
#pragma once

#include <memory>
#include <utility>

#include <plexus/component.h>
#include <plexus/sdk/reason.hpp>

namespace plexus::sdk {

// Module: has int open(plexus_reason_t *) and an api() returning what query() offers.
template <class Module>
class ProcessModule {
public:
    // make() returns a std::unique_ptr<Module>; the module is kept only when its open() succeeds.
    template <class Make>
    int open(plexus_reason_t *why, Make &&make) {
        module_.reset();
        std::unique_ptr<Module> m = std::forward<Make>(make)();
        if (!m) {
            set_reason(why, "could not create the module");
            return PLEXUS_ERR_OUT_OF_RESOURCE;
        }
        if (int rc = m->open(why); rc != PLEXUS_SUCCESS) return rc;
        module_ = std::move(m);
        return PLEXUS_SUCCESS;
    }
    int close() noexcept {
        module_.reset();
        return PLEXUS_SUCCESS;
    }
    int query(plexus_query_result_t *result, int priority) const {
        if (!module_) return decline(result, "not opened");
        return offer(result, priority, module_->api());
    }
    Module *get() const noexcept { return module_.get(); }

private:
    std::unique_ptr<Module> module_;
};

}  // namespace plexus::sdk
