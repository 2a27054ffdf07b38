#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace sdkpp::transport {

// A bounded single-producer single-consumer queue of fixed-size elements, lock-free and wait-free: one
// thread only calls TryPush, one other thread only calls TryPop. The storage is part of the object (no
// allocation after construction). Capacity must be a power of two; one producer and one consumer is the
// contract, not checked. Indexes grow without bound and wrap modulo 2^64, so full and empty differ.
template <typename T, size_t Capacity>
class SpscRing {
    static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0, "Capacity must be a power of two");

public:
    // Copies `value` in; false (nothing changed) when full. Producer thread only.
    template <typename Fill>
    bool TryPushWith(Fill&& fill) noexcept
    {
        const uint64_t tail = tail_.load(std::memory_order_relaxed);
        if (tail - head_.load(std::memory_order_acquire) >= Capacity) {
            return false;
        }
        fill(slots_[tail & (Capacity - 1)]);
        tail_.store(tail + 1, std::memory_order_release);
        return true;
    }
    bool TryPush(const T& value) noexcept
    {
        return TryPushWith([&](T& slot) { slot = value; });
    }

    // Hands the oldest element to `take` and removes it; false when empty. Consumer thread only.
    // GCC cannot see that a slot between head and tail was written by TryPushWith (the slots are left
    // uninitialised, see slots_), and at some inlinings warns that it may be read uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    template <typename Take>
    bool TryPopWith(Take&& take) noexcept
    {
        const uint64_t head = head_.load(std::memory_order_relaxed);
        if (head == tail_.load(std::memory_order_acquire)) {
            return false;
        }
        take(slots_[head & (Capacity - 1)]);
        head_.store(head + 1, std::memory_order_release);
        return true;
    }
    bool TryPop(T* value) noexcept
    {
        return TryPopWith([&](T& slot) { *value = slot; });
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

    // A snapshot; exact only from the producer's or consumer's own thread for its own side.
    size_t Size() const noexcept
    {
        return static_cast<size_t>(tail_.load(std::memory_order_acquire) - head_.load(std::memory_order_acquire));
    }
    static constexpr size_t kCapacity = Capacity;

private:
    // Apart, so the producer's and consumer's writes do not share a cache line.
    alignas(64) std::atomic<uint64_t> head_{0};
    alignas(64) std::atomic<uint64_t> tail_{0};
    // Each slot is written before it is read, so left uninitialised (for plain frames: the pages of a ring
    // a transport never fills are never touched).
    alignas(64) T slots_[Capacity];
};

} // namespace sdkpp::transport
