// Unit tests of the SDK's MPSC FIFO in shared memory (plexus/sdk/shm_fifo.hpp, btl_sm's receive
// FIFO) and of relative pointers: order, full and empty, many laps, and concurrent
// producers in forked processes and in threads over one shared mapping, checking that nothing
// is lost, duplicated or reordered within a producer.
#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <thread>
#include <vector>

#include <plexus/sdk/rel_ptr.hpp>
#include <plexus/sdk/shm_fifo.hpp>

#include "btl_sm_test_support.h"

using namespace plexus::sdk;
using btl_sm_test::SharedMemory;

namespace {

constexpr uint32_t kCap = 64;

class Fifo : public ::testing::Test {
protected:
    Fifo() : mem(fifo_bytes(kCap)) {
        fifo_format(mem.get(), kCap);
        producer = FifoProducer(mem.get());
        consumer = FifoConsumer(mem.get());
    }
    SharedMemory mem;
    FifoProducer producer;
    FifoConsumer consumer;
};

TEST_F(Fifo, EmptyPopsNothing) {
    uint64_t v = 7;
    EXPECT_FALSE(consumer.pop(&v));
    EXPECT_EQ(v, 7u);
}

TEST_F(Fifo, KeepsOrder) {
    for (uint64_t i = 1; i <= 10; ++i) ASSERT_TRUE(producer.push(i * 3));
    for (uint64_t i = 1; i <= 10; ++i) {
        uint64_t v = 0;
        ASSERT_TRUE(consumer.pop(&v));
        EXPECT_EQ(v, i * 3);
    }
    uint64_t v;
    EXPECT_FALSE(consumer.pop(&v));
}

TEST_F(Fifo, FullRefusesUntilOneIsTaken) {
    for (uint32_t i = 0; i < kCap; ++i) ASSERT_TRUE(producer.push(i)) << i;
    EXPECT_FALSE(producer.push(999));
    uint64_t v = 0;
    ASSERT_TRUE(consumer.pop(&v));
    EXPECT_EQ(v, 0u);
    EXPECT_TRUE(producer.push(1000));
    EXPECT_FALSE(producer.push(1001));
    for (uint32_t i = 1; i < kCap; ++i) {
        ASSERT_TRUE(consumer.pop(&v));
        EXPECT_EQ(v, i);
    }
    ASSERT_TRUE(consumer.pop(&v));
    EXPECT_EQ(v, 1000u);
}

TEST_F(Fifo, WrapsAroundManyLaps) {
    uint64_t next_in = 0, next_out = 0;
    for (int round = 0; round < 1000; ++round) {
        const int burst = 1 + round % (kCap - 1);
        for (int i = 0; i < burst; ++i) ASSERT_TRUE(producer.push(next_in++));
        for (int i = 0; i < burst; ++i) {
            uint64_t v = 0;
            ASSERT_TRUE(consumer.pop(&v));
            ASSERT_EQ(v, next_out++);
        }
    }
    EXPECT_GT(next_in, 100u * kCap);
}

// Each producer pushes (id << 32 | sequence); the consumer checks every producer's sequence
// arrives complete and in order. Full queues are retried, as senders do after progress.
void produce(FifoProducer p, uint64_t id, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i)
        while (!p.push((id << 32) | i)) sched_yield();
}

void consume_all(FifoConsumer &c, size_t producers, uint64_t count) {
    std::vector<uint64_t> next(producers, 0);
    uint64_t total = 0;
    while (total < producers * count) {
        uint64_t v;
        if (!c.pop(&v)) {
            sched_yield();
            continue;
        }
        const uint64_t id = v >> 32, seq = v & 0xffffffffu;
        ASSERT_LT(id, producers);
        ASSERT_EQ(seq, next[id]) << "producer " << id << " reordered or lost a value";
        ++next[id];
        ++total;
    }
    uint64_t v;
    EXPECT_FALSE(c.pop(&v)) << "more values than were pushed";
}

TEST_F(Fifo, ForkedProducersLoseNothing) {
    constexpr uint64_t kProducers = 3, kCount = 200000;
    std::vector<pid_t> kids;
    for (uint64_t id = 0; id < kProducers; ++id) {
        pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            // A producer maps the queue itself, as a peer process would.
            produce(FifoProducer(mem.get()), id, kCount);
            _exit(0);
        }
        kids.push_back(pid);
    }
    consume_all(consumer, kProducers, kCount);
    for (pid_t k : kids) EXPECT_TRUE(btl_sm_test::child_succeeded(k));
}

TEST_F(Fifo, ThreadProducersLoseNothing) {
    constexpr uint64_t kProducers = 4, kCount = 100000;
    std::vector<std::thread> threads;
    for (uint64_t id = 0; id < kProducers; ++id) threads.emplace_back(produce, producer, id, kCount);
    consume_all(consumer, kProducers, kCount);
    for (auto &t : threads) t.join();
}

// A relative pointer survives the FIFO's 64-bit word whole, with the largest segment and offset.
TEST_F(Fifo, CarriesRelativePointersWhole) {
    const RelPtr sent[] = {{0, 0}, {1, 4096}, {0xffffffffu, 0xffffffffu}, {7, 0x80000000u}};
    for (RelPtr p : sent) ASSERT_TRUE(producer.push(encode(p)));
    for (RelPtr p : sent) {
        uint64_t word = 0;
        ASSERT_TRUE(consumer.pop(&word));
        EXPECT_EQ(decode(word), p);
    }
}

}  // namespace
