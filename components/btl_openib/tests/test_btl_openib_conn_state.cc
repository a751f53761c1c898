// The RC connection state machine between two simulated processes: a fake queue pair records its
// verbs states (INIT, RTR, RTS) and whom it was connected to; the connect messages travel through
// a network the test reorders. Both sides must end connected to each other's QP, neither may send
// before the other can receive, and a QP is created and connected once.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "components/btl_openib/conn_state.h"

using namespace plexus::btl_openib;

namespace {

enum class QpState { None, Init, Rts };

struct Side;

struct Net {
    struct Msg {
        int to;
        char type;  // 'Q' request, 'A' accept, 'R' ready, 'D' data
        QpAddress addr;
    };
    std::deque<Msg> inflight;
    Side *sides[2] = {nullptr, nullptr};
};

struct Side {
    int id;
    Net *net;
    Connection conn;
    QpState qp = QpState::None;
    QpAddress mine;
    uint32_t connected_to = 0;
    int creates = 0, connects = 0;

    Side(int i, Net *n, bool first) : id(i), net(n), conn(first) { mine.qpn = 100 + i; mine.psn = 7 + i; mine.lid = 1 + i; }

    void run(const std::vector<ConnAction> &actions) {
        for (ConnAction a : actions) {
            switch (a) {
            case ConnAction::CreateQp:
                ++creates;
                qp = QpState::Init;
                break;
            case ConnAction::ConnectQp:
                ASSERT_EQ(qp, QpState::Init) << "connected before created, or twice";
                ++connects;
                qp = QpState::Rts;
                connected_to = conn.remote().qpn;
                break;
            case ConnAction::SendRequest:
                net->inflight.push_back({1 - id, 'Q', mine});
                break;
            case ConnAction::SendAccept:
                net->inflight.push_back({1 - id, 'A', mine});
                break;
            case ConnAction::SendReady:
                net->inflight.push_back({1 - id, 'R', mine});
                break;
            case ConnAction::Flush:
            case ConnAction::Fail:
                break;
            }
        }
    }
    // Sends one data message when it may: the peer must be able to receive it (RTR or later).
    void try_send() {
        if (!conn.can_send()) return;
        ASSERT_EQ(net->sides[1 - id]->qp, QpState::Rts) << "side " << id << " sends before its peer receives";
        net->inflight.push_back({1 - id, 'D', mine});
    }
    void receive(const Net::Msg &m) {
        switch (m.type) {
        case 'Q': run(conn.on_request(m.addr)); break;
        case 'A': run(conn.on_accept(m.addr)); break;
        case 'R': run(conn.on_ready()); break;
        case 'D':
            ASSERT_EQ(qp, QpState::Rts) << "data reached a QP that cannot receive";
            run(conn.on_receive());
            break;
        }
    }
};

// Delivers messages picking the pick-th in flight each time (0: in order; others reorder).
void settle(Net &net, unsigned pick) {
    for (int guard = 0; guard < 100 && !net.inflight.empty(); ++guard) {
        const size_t i = pick % net.inflight.size();
        const Net::Msg m = net.inflight[i];
        net.inflight.erase(net.inflight.begin() + long(i));
        net.sides[m.to]->receive(m);
        for (Side *s : net.sides) s->try_send();
        if (testing::Test::HasFatalFailure()) return;
    }
}

void expect_connected(const Side &a, const Side &b) {
    EXPECT_EQ(a.conn.state(), ConnState::Connected);
    EXPECT_EQ(b.conn.state(), ConnState::Connected);
    EXPECT_EQ(a.connected_to, b.mine.qpn);
    EXPECT_EQ(b.connected_to, a.mine.qpn);
    EXPECT_EQ(a.creates, 1);
    EXPECT_EQ(b.creates, 1);
    EXPECT_EQ(a.connects, 1);
    EXPECT_EQ(b.connects, 1);
}

TEST(OpenibConnState, OneSideConnectsInThreeMessages) {
    for (unsigned pick = 0; pick < 4; ++pick) {
        for (int initiator = 0; initiator < 2; ++initiator) {
            Net net;
            Side a(0, &net, true), b(1, &net, false);
            net.sides[0] = &a;
            net.sides[1] = &b;
            Side &s = initiator == 0 ? a : b;
            s.run(s.conn.start());
            EXPECT_EQ(s.conn.state(), ConnState::Requesting);
            EXPECT_FALSE(s.conn.can_send());
            settle(net, pick);
            expect_connected(a, b);
        }
    }
}

TEST(OpenibConnState, BothSidesConnectingAtOnceEndWithOneConnection) {
    for (unsigned pick = 0; pick < 6; ++pick) {
        Net net;
        Side a(0, &net, true), b(1, &net, false);
        net.sides[0] = &a;
        net.sides[1] = &b;
        a.run(a.conn.start());
        b.run(b.conn.start());
        settle(net, pick);
        expect_connected(a, b);
        // The second side's own QP (made for its request) is the one it accepted with.
        EXPECT_EQ(a.connected_to, 101u);
    }
}

TEST(OpenibConnState, TheAcceptorMaySendOnceTheInitiatorsDataArrivesBeforeItsReady) {
    Net net;
    Side a(0, &net, true), b(1, &net, false);
    net.sides[0] = &a;
    net.sides[1] = &b;
    a.run(a.conn.start());
    b.receive(net.inflight.front());  // REQUEST
    net.inflight.pop_front();
    EXPECT_EQ(b.conn.state(), ConnState::Accepting);
    EXPECT_FALSE(b.conn.can_send());
    a.receive(net.inflight.front());  // ACCEPT
    net.inflight.pop_front();
    ASSERT_TRUE(a.conn.can_send());
    a.try_send();
    b.receive(net.inflight.back());  // the data overtakes READY
    EXPECT_TRUE(b.conn.can_send());
    b.receive(net.inflight.front());  // READY, late: nothing changes
    EXPECT_EQ(b.conn.state(), ConnState::Connected);
    EXPECT_EQ(b.connects, 1);
}

TEST(OpenibConnState, RepeatedAndLateMessagesChangeNothing) {
    Connection c(false);
    QpAddress peer;
    peer.qpn = 5;
    EXPECT_EQ(c.on_request(peer).size(), 3u);
    // The peer did not hear our ACCEPT and asks again with the same QP: the same answer.
    const std::vector<ConnAction> again = c.on_request(peer);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0], ConnAction::SendAccept);
    QpAddress other;
    other.qpn = 6;
    EXPECT_TRUE(c.on_request(other).empty());
    EXPECT_TRUE(c.on_accept(peer).empty()) << "we did not ask";
    EXPECT_EQ(c.on_ready().size(), 1u);
    EXPECT_TRUE(c.on_request(peer).empty());
    EXPECT_TRUE(c.on_ready().empty());
    EXPECT_TRUE(c.start().empty());
    EXPECT_EQ(c.remote().qpn, 5u);
}

TEST(OpenibConnState, AnErrorFailsOnceAndForever) {
    Connection c(true);
    c.start();
    const std::vector<ConnAction> f = c.on_error();
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0], ConnAction::Fail);
    EXPECT_TRUE(c.on_error().empty());
    QpAddress peer;
    EXPECT_TRUE(c.on_accept(peer).empty());
    EXPECT_TRUE(c.on_request(peer).empty());
    EXPECT_FALSE(c.can_send());
    EXPECT_STREQ(conn_state_name(c.state()), "failed");
}

}  // namespace
