// Handshake messages to text and back.
#include "handshake_message.h"

#include <sstream>

namespace plexus::dpm_pmix {

std::string encode(const HandshakeMessage &m) {
    std::string s = "cid " + std::to_string(m.cid) + "\n";
    for (const Proc &p : m.group) s += "proc " + p.nspace + " " + std::to_string(p.rank) + "\n";
    return s;
}

std::optional<HandshakeMessage> decode(const std::string &text, std::string *why) {
    std::istringstream in(text);
    std::string word;
    HandshakeMessage m;
    long long cid = -1;
    if (!(in >> word >> cid) || word != "cid" || cid < 0 || cid > UINT32_MAX)
        return *why = "it does not start with a context id", std::nullopt;
    m.cid = static_cast<uint32_t>(cid);
    while (in >> word) {
        Proc p;
        long long rank = -1;
        if (word != "proc" || !(in >> p.nspace >> rank) || rank < 0 || rank > UINT32_MAX)
            return *why = "process " + std::to_string(m.group.size()) + " is malformed", std::nullopt;
        p.rank = static_cast<uint32_t>(rank);
        m.group.push_back(std::move(p));
    }
    return m;
}

}  // namespace plexus::dpm_pmix
