#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sdkpp::dave {

// The C++ checks of core/dave that only C++ can make, exposed by the addon as daveSelfTest(): above all
// that a steady-state frame (encrypt, decrypt, and refusing a forged frame) makes no heap allocation,
// counted by the wrapped allocator of core/audio/alloc_counter.h. Behaviour is tested from TS against
// both engines.
struct DaveCheck {
    std::string_view name;
    bool ok = false;
};

inline constexpr size_t kMaxDaveChecks = 8;

struct DaveSelfTestReport {
    DaveCheck checks[kMaxDaveChecks];
    size_t count = 0;
    bool countingAvailable = false;
    // Allocations counted across the measured frames (0 is the pass mark).
    uint64_t allocationsInFrames = 0;
    uint32_t frames = 0;
    bool Ok() const noexcept;
};

DaveSelfTestReport RunDaveSelfTest() noexcept;

} // namespace sdkpp::dave
