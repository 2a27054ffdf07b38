#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace sdkpp::transport {

// How late the transport thread woke for its ticks (issue 18: the send loop's own wake-up error, which the
// wire can only show mixed with the receiver's). 10 µs buckets up to 10 ms, the last one holding everything
// later. Written by the transport thread only, read by anyone: relaxed atomics, no allocation, no lock.
class LatenessHistogram {
public:
    static constexpr uint64_t kBucketUs = 10;
    static constexpr std::size_t kBuckets = 1000;

    void Record(uint64_t latenessUs) noexcept
    {
        const uint64_t index = latenessUs / kBucketUs;
        auto& bucket = buckets_[index < kBuckets ? index : kBuckets - 1];
        bucket.store(bucket.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }

    // The upper edge in µs of the bucket that holds the q-th quantile (0 < q <= 1) of what was recorded, or 0
    // before anything was.
    uint64_t Quantile(double q) const noexcept
    {
        std::array<uint32_t, kBuckets> counts{};
        uint64_t total = 0;
        for (std::size_t i = 0; i < kBuckets; ++i) {
            counts[i] = buckets_[i].load(std::memory_order_relaxed);
            total += counts[i];
        }
        if (total == 0) {
            return 0;
        }
        // The rank of the quantile sample, 1-based and at least 1.
        const auto rank = static_cast<uint64_t>(q * static_cast<double>(total) + 0.999999);
        uint64_t seen = 0;
        for (std::size_t i = 0; i < kBuckets; ++i) {
            seen += counts[i];
            if (seen >= rank) {
                return (i + 1) * kBucketUs;
            }
        }
        return kBuckets * kBucketUs;
    }

private:
    std::array<std::atomic<uint32_t>, kBuckets> buckets_{};
};

} // namespace sdkpp::transport
