#include "core/bounded_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace pgnbase::indexer {
namespace {

using namespace std::chrono_literals;

TEST(BoundedQueueTest, PopsInPushOrder) {
  BoundedQueue<int> queue(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(queue.push(i));
  EXPECT_EQ(queue.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(queue.pop(), i);
}

TEST(BoundedQueueTest, CarriesMoveOnlyValues) {
  BoundedQueue<std::unique_ptr<int>> queue(2);
  EXPECT_TRUE(queue.push(std::make_unique<int>(42)));
  std::optional<std::unique_ptr<int>> value = queue.pop();
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(**value, 42);
}

TEST(BoundedQueueTest, PushBlocksWhileFull) {
  BoundedQueue<int> queue(1);
  ASSERT_TRUE(queue.push(1));
  std::atomic<bool> second_pushed{false};
  std::thread producer([&] {
    queue.push(2);
    second_pushed = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(second_pushed.load());
  EXPECT_EQ(queue.pop(), 1);
  producer.join();
  EXPECT_TRUE(second_pushed.load());
  EXPECT_EQ(queue.pop(), 2);
}

TEST(BoundedQueueTest, CloseDrainsThenEnds) {
  BoundedQueue<int> queue(8);
  queue.push(1);
  queue.push(2);
  queue.close();
  EXPECT_TRUE(queue.closed());
  EXPECT_FALSE(queue.push(3));
  EXPECT_EQ(queue.pop(), 1);
  EXPECT_EQ(queue.pop(), 2);
  EXPECT_EQ(queue.pop(), std::nullopt);
  EXPECT_EQ(queue.pop(), std::nullopt);
}

TEST(BoundedQueueTest, CloseWakesBlockedConsumersAndProducers) {
  BoundedQueue<int> empty(1);
  BoundedQueue<int> full(1);
  full.push(0);
  std::atomic<int> woken{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&] {
      if (!empty.pop()) ++woken;
    });
    threads.emplace_back([&] {
      if (!full.push(1)) ++woken;
    });
  }
  std::this_thread::sleep_for(20ms);
  empty.close();
  full.close();
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(woken.load(), 6);
}

TEST(BoundedQueueTest, ManyProducersManyConsumersDeliverEachItemOnce) {
  constexpr int kProducers = 4;
  constexpr int kConsumers = 4;
  constexpr int kPerProducer = 20000;
  constexpr size_t kCapacity = 16;
  BoundedQueue<int> queue(kCapacity);
  std::vector<std::vector<int>> received(kConsumers);
  std::atomic<size_t> largest_size{0};

  std::vector<std::thread> consumers;
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&, c] {
      while (std::optional<int> value = queue.pop()) {
        received[c].push_back(*value);
        size_t now = queue.size();
        size_t seen = largest_size.load();
        while (now > seen && !largest_size.compare_exchange_weak(seen, now)) {
        }
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) ASSERT_TRUE(queue.push(p * kPerProducer + i));
    });
  }
  for (std::thread& producer : producers) producer.join();
  queue.close();
  for (std::thread& consumer : consumers) consumer.join();

  std::vector<int> all;
  for (const std::vector<int>& part : received) {
    all.insert(all.end(), part.begin(), part.end());
    // Each consumer sees every producer's items in that producer's order.
    for (int p = 0; p < kProducers; ++p) {
      int last = -1;
      for (int value : part)
        if (value / kPerProducer == p) {
          EXPECT_GT(value, last);
          last = value;
        }
    }
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), size_t{kProducers * kPerProducer});
  for (int i = 0; i < kProducers * kPerProducer; ++i) ASSERT_EQ(all[static_cast<size_t>(i)], i);
  EXPECT_LE(largest_size.load(), kCapacity);
}

TEST(BoundedQueueTest, ZeroCapacityMeansOne) {
  BoundedQueue<int> queue(0);
  EXPECT_EQ(queue.capacity(), 1u);
  EXPECT_TRUE(queue.push(7));
  EXPECT_EQ(queue.pop(), 7);
}

}  // namespace
}  // namespace pgnbase::indexer
