#pragma once

#include <cstddef>
#include <string_view>

namespace sdkpp::transport {

// The C++ checks of core/transport, run by `npm run test:asan` under AddressSanitizer and UBSan (the
// behaviour is tested from TS against both engines; here every read and write of the thread is checked):
// the SPSC ring between two threads, and a VoiceTransport over loopback UDP against a reflecting peer
// thread (discovery, tone out and back, the silence tail, junk datagrams counted, stop/start, destroy
// while running).
struct TransportThreadCheck {
    std::string_view name;
    bool ok = false;
};

inline constexpr size_t kMaxTransportThreadChecks = 8;

struct TransportThreadSelfTestReport {
    TransportThreadCheck checks[kMaxTransportThreadChecks];
    size_t count = 0;
    bool Ok() const noexcept;
};

TransportThreadSelfTestReport RunTransportThreadSelfTest() noexcept;

} // namespace sdkpp::transport
