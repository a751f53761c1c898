// Port names: "plexus-port:<nspace>:<rank>:<n>:<16 hex digits>", naming the process that opened
// it and a number unique there; the random part keeps a closed port's name from being reused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace plexus::dpm_pmix {

struct PortName {
    std::string nspace;
    uint32_t rank = 0;
    uint64_t serial = 0;
    uint64_t nonce = 0;
};

std::string format_port(const PortName &p);
// nullopt and *why when text is no port name of this component.
std::optional<PortName> parse_port(const std::string &text, std::string *why);

}  // namespace plexus::dpm_pmix
