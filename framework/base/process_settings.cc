#include "process_settings.h"

namespace plexus::mca {

const ProcessSettings &process_settings() {
    static const ProcessSettings read = [] {
        ProcessSettings p;
        p.settings = collect_settings(SourceConfig::from_process(PLEXUS_SYSCONFDIR), &p.errors);
        return p;
    }();
    return read;
}

}  // namespace plexus::mca
