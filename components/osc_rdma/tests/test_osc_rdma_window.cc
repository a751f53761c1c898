// Windows of 2-4 fake processes (threads, osc_rdma_fake.h): fence put/get/accumulate under every
// protocol with the data checked byte for byte, coalescing on the wire, derived datatypes at both
// ends, PSCW with a subset of the group, a counter under exclusive locks, a rank locking its own
// window, and the errors: out-of-window (MPI_ERR_DISP) and operations outside an epoch
// (MPI_ERR_RMA_SYNC), each with its message.
#include <gtest/gtest.h>

#include "osc_rdma_fake.h"

#include <numeric>

using namespace osc_fake;
using plexus::osc_rdma::Config;
using plexus::osc_rdma::Setting;

namespace {

constexpr uint32_t kAll = PLEXUS_BTL_CAP_SEND | PLEXUS_BTL_CAP_PUT | PLEXUS_BTL_CAP_GET;
constexpr uint32_t kSendOnly = PLEXUS_BTL_CAP_SEND;

Config config(Setting s, size_t buffer = 0) {
    Config c;
    c.protocol = s;
    c.buffer_size = buffer;
    return c;
}

const Setting kSettings[] = {Setting::kAuto, Setting::kSendRecv, Setting::kBuffered, Setting::kRma};

}  // namespace

// Every rank puts its row into every other rank's window, gets a neighbour's, accumulates into
// rank 0; sizes from one int to more than a message.
TEST(OscRdmaWindow, FencePutGetAccumulateUnderEveryProtocol) {
    for (uint32_t caps : {kAll, kSendOnly})
        for (Setting s : kSettings)
            for (int count : {1, 100, 5000}) {
                const int n = 3;
                World w(n, caps, 4096);
                w.run([&](Proc &p) {
                    std::vector<int32_t> mem(static_cast<size_t>(n * count), -1), acc(static_cast<size_t>(count), 0);
                    std::vector<int32_t> mine(static_cast<size_t>(count)), got(static_cast<size_t>(count), 0);
                    for (int i = 0; i < count; ++i) mine[size_t(i)] = p.rank * 100000 + i;
                    Win win(p, mem.data(), mem.size() * 4, 4, config(s));
                    Win wacc(p, acc.data(), acc.size() * 4, 4, config(s));
                    plexus_osc_module_t *m = win.mod;
                    ASSERT_EQ(m->fence(m, 0), 0);
                    ASSERT_EQ(wacc.mod->fence(wacc.mod, 0), 0);
                    for (int t = 0; t < n; ++t)
                        ASSERT_EQ(m->put(m, mine.data(), count, h(kInt), t, p.rank * count, count, h(kInt)), 0) << p.last_error;
                    ASSERT_EQ(wacc.mod->accumulate(wacc.mod, mine.data(), count, h(kInt), 0, 0, count, h(kInt), op(kSum)), 0);
                    ASSERT_EQ(m->fence(m, 0), 0);
                    ASSERT_EQ(wacc.mod->fence(wacc.mod, 0), 0);
                    for (int r = 0; r < n; ++r)
                        for (int i = 0; i < count; ++i) {
                            ASSERT_EQ(mem[size_t(r * count + i)], r * 100000 + i);
                        }
                    if (p.rank == 0)
                        for (int i = 0; i < count; ++i) {
                            ASSERT_EQ(acc[size_t(i)], 300000 + 3 * i);
                        }
                    const int from = (p.rank + 1) % n;
                    ASSERT_EQ(m->get(m, got.data(), count, h(kInt), from, from * count, count, h(kInt)), 0);
                    ASSERT_EQ(m->fence(m, 0), 0);
                    for (int i = 0; i < count; ++i) {
                        ASSERT_EQ(got[size_t(i)], from * 100000 + i);
                    }
                });
            }
}

TEST(OscRdmaWindow, ManySmallPutsAreCoalesced) {
    World w(2, kAll, 8192);
    w.run([&](Proc &p) {
        std::vector<double> mem(1000, 0.0), src(1000);
        std::iota(src.begin(), src.end(), 0.5);
        Win win(p, mem.data(), mem.size() * 8, 8, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOPRECEDE), 0);
        const uint64_t before = p.sends;
        if (p.rank == 0)
            for (int i = 0; i < 1000; ++i) {
                ASSERT_EQ(m->put(m, &src[size_t(i)], 1, h(kDouble), 1, i, 1, h(kDouble)), 0);
            }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            // 1000 records of 16 + 8 bytes in 8 KiB messages: 3 messages instead of 1000, the
            // last one carrying the fence's count as well.
            const size_t per = (8192 - 16) / 24;
            EXPECT_EQ(p.sends - before, (1000 + per - 1) / per);
            EXPECT_EQ(p.puts, 0u);  // small puts never went by rma
        } else {
            EXPECT_EQ(std::memcmp(mem.data(), src.data(), 8000), 0);
        }
    });
}

// Rank 0's epoch-1 put to rank 1 is held up (its BTL refuses sends for 100 ms) while rank 2,
// already in epoch 2, puts to the same place: rank 1 must apply the epoch-2 put after the epoch-1
// one although it arrives first, and a get of epoch 2 must see epoch 1's data.
TEST(OscRdmaWindow, TheNextFenceEpochsDataWaitForThisOne) {
    for (Setting s : {Setting::kSendRecv, Setting::kBuffered}) {
        World w(3, kAll, 4096);
        w.run([&](Proc &p) {
            int32_t mem[2] = {0, 0}, a = 1, b = 2, seen = -1;
            Win win(p, mem, sizeof mem, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            ASSERT_EQ(m->fence(m, 0), 0);
            if (p.rank == 0) {
                p.refuse_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
                ASSERT_EQ(m->put(m, &a, 1, h(kInt), 1, 0, 1, h(kInt)), 0);
                ASSERT_EQ(m->put(m, &a, 1, h(kInt), 1, 1, 1, h(kInt)), 0);
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            if (p.rank == 2) {
                ASSERT_EQ(m->put(m, &b, 1, h(kInt), 1, 0, 1, h(kInt)), 0);
                ASSERT_EQ(m->get(m, &seen, 1, h(kInt), 1, 1, 1, h(kInt)), 0);
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            if (p.rank == 1) {
                EXPECT_EQ(mem[0], 2);
                EXPECT_EQ(mem[1], 1);
            }
            if (p.rank == 2) {
                EXPECT_EQ(seen, 1);
            }
            if (p.rank == 0) {
                EXPECT_GT(p.refused, 0u);
            }
        });
    }
}

// The same with rma: rank 2's epoch-2 put lands by the BTL without rank 1, so the fence must not
// let rank 2 start before rank 1 applied rank 0's held-up epoch-1 put (a barrier closes fences of
// windows where put/get may be used).
TEST(OscRdmaWindow, RmaOfTheNextFenceEpochWaitsForThisOne) {
    World w(3, kAll, 4096);
    w.run([&](Proc &p) {
        std::vector<int32_t> mem(2048, 0), a(2048, 1), b(2048, 2);
        Win win(p, mem.data(), mem.size() * 4, 4, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {  // by messages (accumulate)
            p.refuse_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
            ASSERT_EQ(m->accumulate(m, a.data(), 2048, h(kInt), 1, 0, 2048, h(kInt), op(kReplace)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 2) {  // 8 KiB: more than a buffer, by rma
            ASSERT_EQ(m->put(m, b.data(), 2048, h(kInt), 1, 0, 2048, h(kInt)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 1) {
            EXPECT_EQ(mem, b);
        }
        if (p.rank == 2) {
            EXPECT_EQ(p.puts, 1u);
        }
    });
}

// A fence with NOPRECEDE still keeps the new epoch's puts out of a window until its owner has
// called the fence (here: after a late local store, which the put must overwrite).
TEST(OscRdmaWindow, NoPrecedeFenceStillWaitsForTheTarget) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        std::vector<uint8_t> mem(1 << 16, 0), src(1 << 16, 0x77);
        Win win(p, mem.data(), mem.size(), 1, config(Setting::kRma));
        plexus_osc_module_t *m = win.mod;
        if (p.rank == 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            std::fill(mem.begin(), mem.end(), uint8_t(1));
        }
        ASSERT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOPRECEDE), 0);
        if (p.rank == 0) {
            ASSERT_EQ(m->put(m, src.data(), 1 << 16, h(kByte), 1, 0, 1 << 16, h(kByte)), 0);
        }
        ASSERT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOSUCCEED), 0);
        if (p.rank == 1) {
            EXPECT_EQ(mem, src);
        }
    });
}

TEST(OscRdmaWindow, SendrecvSendsOneMessagePerOperation) {
    World w(2, kAll, 8192);
    w.run([&](Proc &p) {
        std::vector<double> mem(100, 0.0), src(100, 2.5);
        Win win(p, mem.data(), mem.size() * 8, 8, config(Setting::kSendRecv));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        const uint64_t before = p.sends;
        if (p.rank == 0)
            for (int i = 0; i < 100; ++i) {
                ASSERT_EQ(m->put(m, &src[size_t(i)], 1, h(kDouble), 1, i, 1, h(kDouble)), 0);
            }
        EXPECT_EQ(p.sends, before);  // queued until the fence
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {  // one message per put, and the fence's own (nothing left to ride on)
            EXPECT_EQ(p.sends - before, 101u);
        }
        if (p.rank == 1) {
            EXPECT_EQ(mem, src);
        }
    });
}

TEST(OscRdmaWindow, LargeContiguousPutsAndGetsGoByRmaUnderAuto) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        std::vector<uint8_t> mem(1 << 20, 0), src(1 << 20), got(8, 0);
        for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 7 + 3);
        Win win(p, mem.data(), mem.size(), 1, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            ASSERT_EQ(m->put(m, src.data(), 1 << 20, h(kByte), 1, 0, 1 << 20, h(kByte)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 1) {
            ASSERT_EQ(mem, src);
        }
        if (p.rank == 1) {
            ASSERT_EQ(m->get(m, got.data(), 8, h(kByte), 0, 0, 8, h(kByte)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            EXPECT_EQ(p.puts, 1u);
        }
        if (p.rank == 1) {
            EXPECT_EQ(p.gets, 1u);
            EXPECT_EQ(std::vector<uint8_t>(8, 0), got);  // rank 0's window is still zero
        }
    });
}

// Strided vectors at the origin into differently strided ones at the target, and back; the
// accumulate's items are cut between messages (a 512-byte buffer holds four of them).
TEST(OscRdmaWindow, DerivedDatatypesAtBothEnds) {
    for (Setting s : kSettings) {
        World w(2, kAll, 512);
        w.run([&](Proc &p) {
            std::vector<int32_t> mem(2600, 0), src(1900), back(1900, 0);
            for (int i = 0; i < 1900; ++i) src[size_t(i)] = i + 1;
            Dtype every_other = vector_int(10, 1, 2);  // 10 ints, every second one; extent 19 ints
            Dtype pairs = vector_int(5, 2, 6);         // 5 pairs, every 6 ints; extent 26 ints
            auto at_origin = [](int k) { return size_t(19 * (k / 10) + 2 * (k % 10)); };
            auto at_target = [](int k) { return size_t(26 * (k / 10) + (k % 10) / 2 * 6 + k % 2); };
            Win win(p, mem.data(), mem.size() * 4, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            ASSERT_EQ(m->fence(m, 0), 0);
            if (p.rank == 0) {
                ASSERT_EQ(m->put(m, src.data(), 100, h(every_other), 1, 0, 100, h(pairs)), 0) << p.last_error;
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            if (p.rank == 1) {
                for (int k = 0; k < 1000; ++k) ASSERT_EQ(mem[at_target(k)], src[at_origin(k)]) << k;
                EXPECT_EQ(mem[2], 0);  // the gaps stay untouched
            }
            barrier(nullptr, nullptr);  // the loads above end before the next epoch's updates start
            if (p.rank == 0) {
                ASSERT_EQ(m->get(m, back.data(), 100, h(every_other), 1, 0, 100, h(pairs)), 0) << p.last_error;
                ASSERT_EQ(m->accumulate(m, src.data(), 100, h(every_other), 1, 0, 100, h(pairs), op(kSum)), 0)
                    << p.last_error;
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            if (p.rank == 0) {
                for (int k = 0; k < 1000; ++k) ASSERT_EQ(back[at_origin(k)], src[at_origin(k)]) << k;
                EXPECT_EQ(back[1], 0);
            }
            if (p.rank == 1) {
                for (int k = 0; k < 1000; ++k) ASSERT_EQ(mem[at_target(k)], 2 * src[at_origin(k)]) << k;
            }
        });
    }
}

// One item of 4000 bytes in messages of 512: the fragments are assembled at the target and the
// item applied whole, twice from each side, under every protocol.
TEST(OscRdmaWindow, AnAccumulateItemLargerThanAMessageIsAssembledAndAppliedWhole) {
    for (Setting s : kSettings) {
        World w(2, kAll, 512);
        w.run([&](Proc &p) {
            std::vector<int32_t> mem(3000, 0), src(2000), want(3000, 0);
            for (int i = 0; i < 2000; ++i) src[size_t(i)] = i + 1;
            for (int i = 0; i < 1999; i += 2) want[size_t(i)] = 2 * (i + 1);
            Dtype big = vector_int(1000, 1, 2);  // one item: 4000 bytes, every second int
            Win win(p, mem.data(), mem.size() * 4, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            ASSERT_EQ(m->fence(m, 0), 0);
            for (int k = 0; k < 2; ++k) {
                ASSERT_EQ(m->accumulate(m, src.data(), 1, h(big), 1 - p.rank, 0, 1, h(big), op(kSum)), 0) << p.last_error;
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            EXPECT_EQ(mem, want);
        });
    }
}

// Ranks 1 and 2 access rank 0 (post to both); rank 3 stays out of it.
TEST(OscRdmaWindow, PscwWithASubsetOfTheGroup) {
    for (Setting s : kSettings) {
        World w(4, kAll, 4096);
        w.run([&](Proc &p) {
            std::vector<int32_t> mem(8, 0);
            Win win(p, mem.data(), mem.size() * 4, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            for (int round = 0; round < 3; ++round) {
                if (p.rank == 0) {
                    const int origins[] = {1, 2};
                    ASSERT_EQ(m->post(m, 2, origins, 0), 0);
                    int flag = 0;
                    while (!flag) ASSERT_EQ(m->test(m, &flag), 0);
                    for (int r = 1; r <= 2; ++r)
                        for (int i = 0; i < 4; ++i) {
                            ASSERT_EQ(mem[size_t((r - 1) * 4 + i)], r * 10 + i + round) << round;
                        }
                } else if (p.rank <= 2) {
                    const int target[] = {0};
                    std::vector<int32_t> v(4);
                    for (int i = 0; i < 4; ++i) v[size_t(i)] = p.rank * 10 + i + round;
                    ASSERT_EQ(m->start(m, 1, target, 0), 0);
                    ASSERT_EQ(m->put(m, v.data(), 4, h(kInt), 0, (p.rank - 1) * 4, 4, h(kInt)), 0);
                    ASSERT_EQ(m->complete(m), 0);
                }
            }
        });
    }
}

// Every rank increments a counter at rank 0 under exclusive locks (lock returns before the grant;
// the accumulate waits for it); the total is exact, also with rank 0 locking its own window.
TEST(OscRdmaWindow, CounterUnderExclusiveLocks) {
    for (Setting s : kSettings) {
        const int n = 4, iters = 25;
        World w(n, kAll, 4096);
        w.run([&](Proc &p) {
            int32_t counter = 0, one = 1, seen = -1;
            Win win(p, &counter, sizeof counter, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            for (int i = 0; i < iters; ++i) {
                ASSERT_EQ(m->lock(m, PLEXUS_OSC_LOCK_EXCLUSIVE, 0, 0), 0);
                ASSERT_EQ(m->accumulate(m, &one, 1, h(kInt), 0, 0, 1, h(kInt), op(kSum)), 0);
                ASSERT_EQ(m->unlock(m, 0), 0);
            }
            barrier(nullptr, nullptr);
            ASSERT_EQ(m->lock(m, PLEXUS_OSC_LOCK_SHARED, 0, 0), 0);
            ASSERT_EQ(m->get(m, &seen, 1, h(kInt), 0, 0, 1, h(kInt)), 0);
            ASSERT_EQ(m->unlock(m, 0), 0);
            EXPECT_EQ(seen, n * iters);
            barrier(nullptr, nullptr);
        });
    }
}

// The paper's lock: MPI_Win_lock returns before the target (busy, not in the library) could
// grant it; the put waits for the grant, and unlock returns once it is applied at the target.
TEST(OscRdmaWindow, LockReturnsBeforeTheGrant) {
    for (Setting s : kSettings) {
        World w(2, kAll, 4096);
        w.run([&](Proc &p) {
            int32_t mem = 0, v = 42;
            Win win(p, &mem, sizeof mem, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            barrier(nullptr, nullptr);
            if (p.rank == 1) {
                std::this_thread::sleep_for(std::chrono::milliseconds(300));  // computing, no MPI
            } else {
                const auto t0 = std::chrono::steady_clock::now();
                ASSERT_EQ(m->lock(m, PLEXUS_OSC_LOCK_EXCLUSIVE, 1, 0), 0);
                ASSERT_EQ(m->put(m, &v, 1, h(kInt), 1, 0, 1, h(kInt)), 0);
                EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(150));
                ASSERT_EQ(m->unlock(m, 1), 0);
                EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(150));
            }
            barrier(nullptr, nullptr);
            if (p.rank == 1) {
                EXPECT_EQ(mem, 42);
            }
        });
    }
}

// The BTL refuses every second send, put and get for now (PLEXUS_ERR_AGAIN): what waits is
// retried in order from the progress callback, and every epoch still ends with all its data,
// completion messages behind the data they complete.
TEST(OscRdmaWindow, BackPressureKeepsOrderAndData) {
    for (Setting s : kSettings) {
        const int n = 3, count = 3000;
        World w(n, kAll, 1024);
        for (auto &p : w.procs) p->again_every = 2;
        w.run([&](Proc &p) {
            std::vector<int32_t> mem(static_cast<size_t>(n * count), -1), mine(static_cast<size_t>(count)),
                got(static_cast<size_t>(count), 0);
            int32_t counter = 0, one = 1;
            for (int i = 0; i < count; ++i) mine[size_t(i)] = p.rank * 100000 + i;
            Win win(p, mem.data(), mem.size() * 4, 4, config(s));
            Win wc(p, &counter, sizeof counter, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            ASSERT_EQ(m->fence(m, 0), 0);
            for (int t = 0; t < n; ++t) {
                for (int i = 0; i < count; i += 100)  // small puts, then one large
                    ASSERT_EQ(m->put(m, &mine[size_t(i)], 1, h(kInt), t, p.rank * count + i, 1, h(kInt)), 0);
                ASSERT_EQ(m->put(m, mine.data(), count, h(kInt), t, p.rank * count, count, h(kInt)), 0);
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            for (int r = 0; r < n; ++r) {
                for (int i = 0; i < count; ++i) ASSERT_EQ(mem[size_t(r * count + i)], r * 100000 + i);
            }
            const int from = (p.rank + 1) % n;
            ASSERT_EQ(m->get(m, got.data(), count, h(kInt), from, from * count, count, h(kInt)), 0);
            ASSERT_EQ(m->fence(m, 0), 0);
            for (int i = 0; i < count; ++i) ASSERT_EQ(got[size_t(i)], from * 100000 + i);
            for (int i = 0; i < 10; ++i) {
                ASSERT_EQ(wc.mod->lock(wc.mod, PLEXUS_OSC_LOCK_EXCLUSIVE, 0, 0), 0);
                ASSERT_EQ(wc.mod->accumulate(wc.mod, &one, 1, h(kInt), 0, 0, 1, h(kInt), op(kSum)), 0);
                ASSERT_EQ(wc.mod->unlock(wc.mod, 0), 0);
            }
            barrier(nullptr, nullptr);
            if (p.rank == 0) {
                EXPECT_EQ(counter, n * 10);
            }
            EXPECT_GT(p.refused, 0u);
        });
    }
}

TEST(OscRdmaWindow, OutOfWindowIsErrDispAndNothingMoves) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        std::vector<int32_t> mem(10, 7), src(4, 1);
        Win win(p, mem.data(), mem.size() * 4, 4, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        const int peer = 1 - p.rank;
        EXPECT_EQ(m->put(m, src.data(), 4, h(kInt), peer, 7, 4, h(kInt)), PLEXUS_OSC_ERR_DISP);
        EXPECT_NE(p.last_error.find("MPI_Put"), std::string::npos) << p.last_error;
        EXPECT_NE(p.last_error.find("[28, 44)"), std::string::npos) << p.last_error;
        EXPECT_EQ(m->get(m, src.data(), 1, h(kInt), peer, -1, 1, h(kInt)), PLEXUS_OSC_ERR_DISP);
        EXPECT_NE(p.last_error.find("negative"), std::string::npos) << p.last_error;
        EXPECT_EQ(m->accumulate(m, src.data(), 4, h(kInt), peer, 10, 4, h(kInt), op(kSum)), PLEXUS_OSC_ERR_DISP);
        EXPECT_EQ(m->put(m, src.data(), 4, h(kInt), peer, 6, 4, h(kInt)), 0);  // the last four ints: inside
        ASSERT_EQ(m->fence(m, 0), 0);
        EXPECT_EQ(mem, (std::vector<int32_t>{7, 7, 7, 7, 7, 7, 1, 1, 1, 1}));
    });
}

// A window of zero bytes (base NULL) at rank 1: empty accesses are fine, any byte is MPI_ERR_DISP.
TEST(OscRdmaWindow, ZeroSizeWindow) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        int32_t mem[2] = {5, 5}, v[2] = {1, 2};
        Win win(p, p.rank == 1 ? nullptr : mem, p.rank == 1 ? 0 : sizeof mem, 4, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            EXPECT_EQ(m->put(m, v, 0, h(kInt), 1, 0, 0, h(kInt)), 0);
            EXPECT_EQ(m->put(m, v, 1, h(kInt), 1, 0, 1, h(kInt)), PLEXUS_OSC_ERR_DISP);
            EXPECT_NE(p.last_error.find("has 0 bytes"), std::string::npos) << p.last_error;
        } else {
            EXPECT_EQ(m->put(m, v, 2, h(kInt), 0, 0, 2, h(kInt)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            EXPECT_EQ(mem[0], 1);
            EXPECT_EQ(mem[1], 2);
        }
    });
}

TEST(OscRdmaWindow, OperationsOutsideAnEpochAreRmaSync) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        int32_t mem = 0, v = 1;
        Win win(p, &mem, sizeof mem, 4, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        EXPECT_EQ(m->put(m, &v, 1, h(kInt), 1 - p.rank, 0, 1, h(kInt)), PLEXUS_OSC_ERR_RMA_SYNC);
        EXPECT_NE(p.last_error.find("outside an access epoch"), std::string::npos) << p.last_error;
        EXPECT_EQ(m->complete(m), PLEXUS_OSC_ERR_RMA_SYNC);
        EXPECT_EQ(m->wait(m), PLEXUS_OSC_ERR_RMA_SYNC);
        EXPECT_EQ(m->unlock(m, 1 - p.rank), PLEXUS_OSC_ERR_RMA_SYNC);
        EXPECT_NE(p.last_error.find("not locked"), std::string::npos) << p.last_error;
        ASSERT_EQ(m->lock(m, PLEXUS_OSC_LOCK_SHARED, 1 - p.rank, 0), 0);
        EXPECT_EQ(m->lock(m, PLEXUS_OSC_LOCK_SHARED, 1 - p.rank, 0), PLEXUS_OSC_ERR_RMA_SYNC);
        EXPECT_EQ(m->fence(m, 0), PLEXUS_OSC_ERR_RMA_SYNC);
        EXPECT_NE(p.last_error.find("lock epoch"), std::string::npos) << p.last_error;
        ASSERT_EQ(m->unlock(m, 1 - p.rank), 0);
        // A fence with NOSUCCEED opens no epoch.
        ASSERT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOSUCCEED), 0);
        EXPECT_EQ(m->put(m, &v, 1, h(kInt), 1 - p.rank, 0, 1, h(kInt)), PLEXUS_OSC_ERR_RMA_SYNC);
    });
}

// Two processes: a fence is one message each way, the last records carrying the count, and no
// collective (the fake's alltoall and barrier are not called).
TEST(OscRdmaWindow, AFenceOfTwoIsOneMessageEachWay) {
    for (Setting s : {Setting::kAuto, Setting::kBuffered}) {
        World w(2, kAll, 4096);
        w.run([&](Proc &p) {
            double mem[4] = {0, 0, 0, 0}, v = 1.5 + p.rank;
            Win win(p, mem, sizeof mem, 8, config(s));
            plexus_osc_module_t *m = win.mod;
            ASSERT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOPRECEDE), 0);
            const uint64_t before = p.sends, colls = p.collectives;
            ASSERT_EQ(m->put(m, &v, 1, h(kDouble), 1 - p.rank, 2, 1, h(kDouble)), 0);
            ASSERT_EQ(m->fence(m, 0), 0);
            EXPECT_EQ(p.sends - before, 1u);  // the put and the count in one message
            EXPECT_EQ(mem[2], 1.5 + (1 - p.rank));
            ASSERT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOSUCCEED), 0);
            EXPECT_EQ(p.sends - before, 2u);  // an empty epoch: the count alone
            EXPECT_EQ(p.collectives, colls);
        });
    }
}

// Two processes fence without a barrier, so a put/get of the next epoch must wait until the
// peer has applied this epoch's records (held up here 100 ms in the origin's outbox): the first
// one asks the peer (kFenceQuery) and waits for its answer. Without that, the rma put lands first
// and the late epoch-1 put overwrites it.
TEST(OscRdmaWindow, TwoProcessFenceRmaWaitsForThePeersRecords) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        std::vector<int32_t> mem(2048, 0), a(2048, 1), b(2048, 2);
        Win win(p, mem.data(), mem.size() * 4, 4, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {  // 64 bytes: buffered, then stuck in the outbox
            p.refuse_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
            ASSERT_EQ(m->put(m, a.data(), 16, h(kInt), 1, 0, 16, h(kInt)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {  // 8 KiB: by rma
            ASSERT_EQ(m->put(m, b.data(), 2048, h(kInt), 1, 0, 2048, h(kInt)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 1) {
            EXPECT_EQ(mem, b);
        }
        if (p.rank == 0) {
            EXPECT_EQ(p.puts, 1u);
        }
    });
}

// A fence of two tells the peer nothing about this process's own records: the put a process made
// into its own window (a message round its loopback queue) must be in its memory before the peer
// leaves the fence, or the peer's get of the next epoch, by rma without asking, reads the old
// bytes. Rank 1's progress is held up 100 ms as a descheduled process's would be.
TEST(OscRdmaWindow, APeersGetAfterAFenceOfTwoSeesWhatTheTargetPutIntoItsOwnWindow) {
    World w(2, kAll, 4096);
    w.run([&](Proc &p) {
        std::vector<int32_t> mem(16, 0), mine(16), got(16, -1);
        std::iota(mine.begin(), mine.end(), 100);
        Win win(p, mem.data(), mem.size() * 4, 4, config(Setting::kAuto));
        plexus_osc_module_t *m = win.mod;
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 1) {  // 64 bytes into its own window: buffered, round the loopback
            ASSERT_EQ(m->put(m, mine.data(), 16, h(kInt), 1, 0, 16, h(kInt)), 0);
            p.stall_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            ASSERT_EQ(m->get(m, got.data(), 16, h(kInt), 1, 0, 16, h(kInt)), 0);
        }
        ASSERT_EQ(m->fence(m, 0), 0);
        if (p.rank == 0) {
            EXPECT_EQ(got, mine);
            EXPECT_EQ(p.gets, 1u);  // by rma: the target was not asked
        }
        if (p.rank == 1) {
            EXPECT_EQ(mem, mine);
        }
    });
}

// MPI_MODE_NOCHECK on lock: the origin sends at once, the target grants nothing (its only message
// is the release), and the data arrive.
TEST(OscRdmaWindow, LockWithNoCheckNeedsNoGrant) {
    for (Setting s : kSettings) {
        World w(2, kAll, 4096);
        w.run([&](Proc &p) {
            int32_t mem[4] = {0, 0, 0, 0}, v[2] = {7, 8};
            Win win(p, mem, sizeof mem, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            barrier(nullptr, nullptr);
            const uint64_t before = p.sends;
            if (p.rank == 0) {
                for (int k = 0; k < 3; ++k) {
                    ASSERT_EQ(m->lock(m, PLEXUS_OSC_LOCK_EXCLUSIVE, 1, PLEXUS_OSC_MODE_NOCHECK), 0);
                    ASSERT_EQ(m->put(m, v, 2, h(kInt), 1, 1 + k % 2, 2, h(kInt)), 0) << p.last_error;
                    ASSERT_EQ(m->unlock(m, 1), 0) << p.last_error;
                }
            }
            barrier(nullptr, nullptr);
            if (p.rank == 1) {
                EXPECT_EQ(p.sends - before, 3u);  // three releases, no grant
                EXPECT_EQ(mem[1], 7);  // the third epoch's put (at 1) came after the second's (at 2)
                EXPECT_EQ(mem[2], 8);
                EXPECT_EQ(mem[3], 8);
            }
        });
    }
}

// MPI_MODE_NOCHECK on post and start: no post message travels; the epoch still completes with
// the data in place.
TEST(OscRdmaWindow, PscwWithNoCheckSendsNoPost) {
    for (Setting s : kSettings) {
        World w(2, kAll, 4096);
        w.run([&](Proc &p) {
            int32_t mem[2] = {0, 0}, v = 40 + p.rank;
            Win win(p, mem, sizeof mem, 4, config(s));
            plexus_osc_module_t *m = win.mod;
            const int peer = 1 - p.rank;
            for (int round = 0; round < 3; ++round) {
                const uint64_t before = p.sends;
                barrier(nullptr, nullptr);  // NOCHECK's promise: the matching post happened before start
                ASSERT_EQ(m->post(m, 1, &peer, PLEXUS_OSC_MODE_NOCHECK), 0);
                barrier(nullptr, nullptr);
                ASSERT_EQ(m->start(m, 1, &peer, PLEXUS_OSC_MODE_NOCHECK), 0);
                ASSERT_EQ(m->put(m, &v, 1, h(kInt), peer, round % 2, 1, h(kInt)), 0);
                ASSERT_EQ(m->complete(m), 0);
                ASSERT_EQ(m->wait(m), 0);
                // the put with the complete count, nothing else (sendrecv: the put's own message first)
                EXPECT_EQ(p.sends - before, s == Setting::kSendRecv ? 2u : 1u);
                EXPECT_EQ(mem[round % 2], 40 + peer);
            }
        });
    }
}

// A put of a few KiB goes in a message of its own, gathered from the origin buffer by the BTL
// (the small put after it rides with the fence's count); with every second send refused for
// now, the refused one waits in the outbox as a copy and the data still arrive in order.
TEST(OscRdmaWindow, APutOfSomeKiBTravelsInAMessageOfItsOwn) {
    for (int again : {0, 2}) {
        World w(2, kAll, 16384);
        w.run([&](Proc &p) {
            std::vector<uint8_t> mem(12000, 0), src(8000), small(8, 0x5a);
            for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 7 + 1);
            Win win(p, mem.data(), mem.size(), 1, config(Setting::kAuto));
            plexus_osc_module_t *m = win.mod;
            ASSERT_EQ(m->fence(m, 0), 0);
            p.again_every = again;
            const uint64_t before = p.sends;
            if (p.rank == 0) {
                ASSERT_EQ(m->put(m, src.data(), 8000, h(kByte), 1, 100, 8000, h(kByte)), 0);
                ASSERT_EQ(m->put(m, small.data(), 8, h(kByte), 1, 9000, 8, h(kByte)), 0);
            }
            ASSERT_EQ(m->fence(m, 0), 0);
            p.again_every = 0;
            if (p.rank == 0) {
                EXPECT_EQ(p.sends - before, 2u);
                EXPECT_EQ(p.puts, 0u);
            } else {
                EXPECT_EQ(std::memcmp(mem.data() + 100, src.data(), 8000), 0);
                EXPECT_EQ(std::memcmp(mem.data() + 9000, small.data(), 8), 0);
                EXPECT_EQ(mem[99], 0);
                EXPECT_EQ(mem[8100], 0);
            }
        });
    }
}
