#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sdkpp::audio {

// The C++ unit tests of core/audio that only C++ can do, exposed by the addon as audioSelfTest(): above
// all, that a whole 20 ms tick (capture processing, encode, jitter buffer push and pop, decode or
// conceal, and a 25-speaker mix) makes no heap allocation, counted by the wrapped allocator
// (alloc_counter.h). The behaviour itself is tested from TS against both engines.
struct AudioCheck {
    std::string_view name;
    bool ok = false;
};

inline constexpr size_t kMaxAudioChecks = 8;

struct AudioSelfTestReport {
    AudioCheck checks[kMaxAudioChecks];
    size_t count = 0;
    bool countingAvailable = false;
    bool codecAvailable = false;
    // Allocations counted across the measured ticks (0 is the pass mark).
    uint64_t allocationsInTicks = 0;
    uint32_t ticks = 0;
    bool Ok() const noexcept;
};

AudioSelfTestReport RunAudioSelfTest() noexcept;

} // namespace sdkpp::audio
