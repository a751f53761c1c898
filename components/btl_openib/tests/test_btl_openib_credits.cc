// btl_openib's credit flow control between two simulated peers: no message ever arrives without a
// posted buffer for it, credits come back piggybacked or by explicit credit messages, and a long
// exchange of random traffic in both directions neither deadlocks nor loses a message.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "components/btl_openib/credits.h"

using plexus::btl_openib::CreditWindow;
using plexus::btl_openib::Piggyback;

namespace {

TEST(OpenibCredits, SendingSpendsCreditsAndStopsAtZero) {
    CreditWindow w(3, 1, 2);
    EXPECT_TRUE(w.take_data());
    EXPECT_TRUE(w.take_data());
    EXPECT_TRUE(w.take_data());
    EXPECT_FALSE(w.take_data());
    EXPECT_EQ(w.data_credits(), 0);
    EXPECT_TRUE(w.take_ctl());
    EXPECT_FALSE(w.take_ctl());
    w.untake_data();
    EXPECT_EQ(w.data_credits(), 1);
    w.returned(Piggyback{5, 1, 0});
    EXPECT_EQ(w.data_credits(), 6);
    EXPECT_EQ(w.ctl_credits(), 1);
}

TEST(OpenibCredits, OwedCreditsArePiggybackedOnceAndAnExplicitMessageIsDueAtTheThreshold) {
    CreditWindow w(8, 2, 4);
    for (int i = 0; i < 3; ++i) w.consumed(false);
    w.consumed(true);
    EXPECT_FALSE(w.explicit_due());
    w.consumed(false);
    EXPECT_TRUE(w.explicit_due());
    const Piggyback p = w.take_owed();
    EXPECT_EQ(p.data, 4);
    EXPECT_EQ(p.ctl, 1);
    EXPECT_FALSE(w.explicit_due());
    EXPECT_EQ(w.take_owed().data, 0);  // given once
    w.restore_owed(p);                 // the message that carried them was not sent
    EXPECT_EQ(w.owed_data(), 4);
    EXPECT_EQ(w.owed_ctl(), 1);
}

// Two peers; each direction has a wire (messages in flight) and the receiver's posted buffers.
struct Msg {
    bool credit;
    Piggyback carried;
    int seq;
};

struct Peer {
    CreditWindow w;
    std::deque<int> backlog;  // messages the application wants to send, in order
    int next_expected = 0;    // from the other peer
    int sent = 0;
};

class Sim {
public:
    Sim(uint16_t data, uint16_t ctl) : data_(data), ctl_(ctl) {
        for (Peer &p : peers_) p.w = CreditWindow(data, ctl, static_cast<uint16_t>(data / 2));
    }
    // One step of peer i: send what credits allow (piggybacking), else an explicit credit message
    // when due; receive one message from the wire, if any.
    void step(int i, std::mt19937 &rng) {
        Peer &me = peers_[i];
        std::deque<Msg> &out = wire_[i];
        if (!me.backlog.empty() && me.w.take_data()) {
            out.push_back(Msg{false, me.w.take_owed(), me.backlog.front()});
            me.backlog.pop_front();
            ++me.sent;
        } else if (me.w.explicit_due() && me.w.take_ctl()) {
            out.push_back(Msg{true, me.w.take_owed(), -1});
        }
        ASSERT_LE(out.size(), size_t(data_) + ctl_) << "more in flight than buffers posted";
        std::deque<Msg> &in = wire_[1 - i];
        if (!in.empty() && (rng() % 3) != 0) {
            const Msg m = in.front();
            in.pop_front();
            me.w.returned(m.carried);
            if (!m.credit) {
                ASSERT_EQ(m.seq, me.next_expected);
                ++me.next_expected;
            }
            me.w.consumed(m.credit);  // reposted at once
        }
    }
    Peer peers_[2];
    std::deque<Msg> wire_[2];  // wire_[i]: from peer i to the other

private:
    uint16_t data_, ctl_;
};

TEST(OpenibCredits, RandomTrafficBothWaysNeverOverrunsBuffersNorDeadlocks) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        std::mt19937 rng(seed);
        Sim sim(8, 1);
        // One side sends far more than the other: its credits must come back by credit messages.
        const int want[2] = {2000, int(rng() % 50)};
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k < want[i]; ++k) sim.peers_[i].backlog.push_back(k);
        for (int t = 0; t < 200000 && (sim.peers_[0].next_expected < want[1] || sim.peers_[1].next_expected < want[0]);
             ++t) {
            sim.step(int(rng() % 2), rng);
            if (HasFatalFailure()) return;
        }
        EXPECT_EQ(sim.peers_[1].next_expected, want[0]) << "seed " << seed;
        EXPECT_EQ(sim.peers_[0].next_expected, want[1]) << "seed " << seed;
    }
}

}  // namespace
