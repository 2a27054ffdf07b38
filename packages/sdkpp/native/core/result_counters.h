#pragma once

#include <cstddef>
#include <cstdint>

namespace sdkpp {

// How many times each result of a result enum occurred (one slot per value below N). Plain counters:
// each owner (a cryptor, a codec, a frame encryptor) is single-threaded. A value out of range is ignored.
template <typename Result, size_t N>
class ResultCounters {
public:
    void Count(Result result) noexcept
    {
        const auto index = static_cast<size_t>(result);
        if (index < N) {
            ++counts_[index];
        }
    }
    uint64_t Get(Result result) const noexcept
    {
        const auto index = static_cast<size_t>(result);
        return index < N ? counts_[index] : 0;
    }
    // Everything except the first value (each enum's kOk).
    uint64_t Failures() const noexcept
    {
        uint64_t total = 0;
        for (size_t i = 1; i < N; ++i) {
            total += counts_[i];
        }
        return total;
    }

private:
    uint64_t counts_[N] = {};
};

} // namespace sdkpp
