// Handshake messages to text and back.
#include "handshake_message.h"

#include <sstream>

namespace plexus::dpm_pmix {

namespace {

std::string hex(const std::vector<uint8_t> &bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (uint8_t b : bytes) out += {digits[b >> 4], digits[b & 15]};
    return out;
}

bool unhex(const std::string &text, std::vector<uint8_t> *out) {
    if (text.size() != 2 * kKeyBytes) return false;
    out->clear();
    for (size_t i = 0; i < text.size(); i += 2) {
        unsigned v = 0;
        for (char ch : {text[i], text[i + 1]}) {
            const int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
            if (d < 0) return false;
            v = v * 16 + static_cast<unsigned>(d);
        }
        out->push_back(static_cast<uint8_t>(v));
    }
    return true;
}

}  // namespace

std::string encode(const HandshakeMessage &m) {
    std::string s = "cid " + std::to_string(m.cid) + "\n";
    if (!m.key.empty()) s += "key " + hex(m.key) + "\n";
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
        if (word == "key" && m.group.empty() && m.key.empty()) {
            std::string text;
            if (!(in >> text) || !unhex(text, &m.key))
                return *why = "its key is not " + std::to_string(2 * kKeyBytes) + " hex digits", std::nullopt;
            continue;
        }
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
