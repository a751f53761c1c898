#include "conn_state.h"

namespace plexus::btl_openib {

const char *conn_state_name(ConnState s) {
    switch (s) {
    case ConnState::Closed: return "closed";
    case ConnState::Requesting: return "requesting";
    case ConnState::Accepting: return "accepting";
    case ConnState::Connected: return "connected";
    case ConnState::Failed: return "failed";
    }
    return "?";
}

std::vector<ConnAction> Connection::start() {
    if (state_ != ConnState::Closed) return {};
    state_ = ConnState::Requesting;
    return {ConnAction::CreateQp, ConnAction::SendRequest};
}

std::vector<ConnAction> Connection::on_request(const QpAddress &remote) {
    switch (state_) {
    case ConnState::Closed:
        state_ = ConnState::Accepting;
        remote_ = remote;
        return {ConnAction::CreateQp, ConnAction::ConnectQp, ConnAction::SendAccept};
    case ConnState::Requesting:
        // Both connect at once: the first in order keeps its request, which the other accepts.
        if (first_) return {};
        state_ = ConnState::Accepting;
        remote_ = remote;
        return {ConnAction::ConnectQp, ConnAction::SendAccept};
    case ConnState::Accepting:
        // Our ACCEPT was lost to a peer that asked again with the same QP: say it again.
        if (remote == remote_) return {ConnAction::SendAccept};
        return {};
    case ConnState::Connected:
    case ConnState::Failed:
        return {};  // late copies of a request already answered, or of one we overruled
    }
    return {};
}

std::vector<ConnAction> Connection::on_accept(const QpAddress &remote) {
    if (state_ != ConnState::Requesting) return {};
    state_ = ConnState::Connected;
    remote_ = remote;
    return {ConnAction::ConnectQp, ConnAction::SendReady, ConnAction::Flush};
}

std::vector<ConnAction> Connection::on_ready() {
    if (state_ != ConnState::Accepting) return {};
    state_ = ConnState::Connected;
    return {ConnAction::Flush};
}

std::vector<ConnAction> Connection::on_receive() { return on_ready(); }

std::vector<ConnAction> Connection::on_error() {
    if (state_ == ConnState::Failed) return {};
    state_ = ConnState::Failed;
    return {ConnAction::Fail};
}

}  // namespace plexus::btl_openib
