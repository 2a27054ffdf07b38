#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace sdkpp::devices {

// A bounded single-producer single-consumer ring of 16-bit samples, lock-free: an audio device's callback
// on one side and the pump (or the transport thread) on the other. Blocks of any size go in and out; a
// producer that finds it full keeps what fits and counts the rest as dropped, and the consumer may drop
// the oldest samples to bound the latency. Storage is allocated once, at construction.
class SampleRing {
public:
    // `capacity` is rounded up to a power of two.
    explicit SampleRing(size_t capacity)
    {
        size_t size = 2;
        while (size < capacity) size <<= 1;
        mask_ = size - 1;
        samples_ = std::make_unique<int16_t[]>(size);
    }

    size_t Capacity() const noexcept { return mask_ + 1; }

    // Producer: copies up to `count` samples in and returns how many fitted.
    size_t Write(const int16_t* in, size_t count) noexcept
    {
        const uint64_t tail = tail_.load(std::memory_order_relaxed);
        const uint64_t head = head_.load(std::memory_order_acquire);
        const size_t room = Capacity() - static_cast<size_t>(tail - head);
        const size_t n = std::min(count, room);
        Copy(in, tail, n);
        tail_.store(tail + n, std::memory_order_release);
        return n;
    }

    // Consumer: copies exactly `count` samples out when that many are there; false (nothing taken) if not.
    bool Read(int16_t* out, size_t count) noexcept
    {
        const uint64_t head = head_.load(std::memory_order_relaxed);
        const uint64_t tail = tail_.load(std::memory_order_acquire);
        if (static_cast<size_t>(tail - head) < count) return false;
        for (size_t done = 0; done < count;) {
            const size_t at = static_cast<size_t>((head + done) & mask_);
            const size_t n = std::min(count - done, Capacity() - at);
            std::memcpy(out + done, samples_.get() + at, n * sizeof(int16_t));
            done += n;
        }
        head_.store(head + count, std::memory_order_release);
        return true;
    }

    // Consumer: drops the oldest samples until at most `keep` are left; returns how many were dropped.
    size_t TrimTo(size_t keep) noexcept
    {
        const uint64_t head = head_.load(std::memory_order_relaxed);
        const uint64_t tail = tail_.load(std::memory_order_acquire);
        const size_t have = static_cast<size_t>(tail - head);
        if (have <= keep) return 0;
        head_.store(head + (have - keep), std::memory_order_release);
        return have - keep;
    }

    // Consumer: drops the oldest samples, whole blocks of `block`, while they lie inside a pause: a run of
    // quiet samples (no magnitude above `threshold`) that goes on for at least `lookahead` more samples, so
    // the quiet moments inside a word are never taken and each pause keeps its last `lookahead`. At most
    // `max` samples go, and never so many that fewer than `keep` are left. Returns how many were dropped.
    // Latency given back this way shortens a pause instead of cutting a word.
    size_t DropQuiet(size_t max, size_t keep, size_t block, size_t lookahead, int threshold) noexcept
    {
        const uint64_t tail = tail_.load(std::memory_order_acquire);
        const uint64_t head = head_.load(std::memory_order_relaxed);
        const size_t have = static_cast<size_t>(tail - head);
        if (block == 0 || have <= keep) return 0;
        const size_t limit = std::min(have, max + lookahead);
        size_t run = 0;
        while (run < limit) {
            const int sample = samples_[static_cast<size_t>((head + run) & mask_)];
            if (sample > threshold || sample < -threshold) break;
            ++run;
        }
        if (run <= lookahead) return 0;
        const size_t allowed = std::min({run - lookahead, max, have - keep});
        const size_t dropped = allowed / block * block;
        head_.store(head + dropped, std::memory_order_release);
        return dropped;
    }

    // A snapshot of the samples waiting; exact on the consumer's thread.
    size_t Available() const noexcept
    {
        return static_cast<size_t>(tail_.load(std::memory_order_acquire) - head_.load(std::memory_order_acquire));
    }

private:
    void Copy(const int16_t* in, uint64_t tail, size_t count) noexcept
    {
        for (size_t done = 0; done < count;) {
            const size_t at = static_cast<size_t>((tail + done) & mask_);
            const size_t n = std::min(count - done, Capacity() - at);
            std::memcpy(samples_.get() + at, in + done, n * sizeof(int16_t));
            done += n;
        }
    }

    alignas(64) std::atomic<uint64_t> head_{0};
    alignas(64) std::atomic<uint64_t> tail_{0};
    size_t mask_ = 1;
    std::unique_ptr<int16_t[]> samples_;
};

} // namespace sdkpp::devices
