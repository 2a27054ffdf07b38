#pragma once

#include <cstddef>
#include <string_view>

namespace sdkpp::devices {

// The C++ checks of core/devices, run by `npm run test:asan` under AddressSanitizer and UBSan: the sample
// ring's wrap-around, a full ring keeping what fits, exact reads, trimming, and a producer and a consumer
// thread passing a counting sequence through it without a sample lost, repeated or torn; the capture
// reader's cushion and latency bound; and the processing link handing the microphone between the
// transport's thread and the processing thread without both ever reading it at once. The devices
// themselves are tested from TS against a real PulseAudio server (test/integration/systemAudio.test.ts).
struct DevicesCheck {
    std::string_view name;
    bool ok = false;
};

inline constexpr size_t kMaxDevicesChecks = 12;

struct DevicesSelfTestReport {
    DevicesCheck checks[kMaxDevicesChecks];
    size_t count = 0;
    bool Ok() const noexcept;
};

DevicesSelfTestReport RunDevicesSelfTest() noexcept;

} // namespace sdkpp::devices
