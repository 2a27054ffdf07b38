#pragma once

#include <cstddef>
#include <string_view>

namespace sdkpp::rtp {

// The C++ unit tests of core/rtp, runnable from any host (the addon exposes them as transportSelfTest()):
// the reference's transport vectors for both modes, the HChaCha20 vector, IP discovery vectors, header
// extension elements, the nonce counter, and every malformed-input code of the receive path.
struct TransportCheck {
    std::string_view name;
    bool ok = false;
};

inline constexpr size_t kMaxTransportChecks = 32;

struct TransportSelfTestReport {
    TransportCheck checks[kMaxTransportChecks];
    size_t count = 0;
    bool Ok() const noexcept;
};

TransportSelfTestReport RunTransportSelfTest() noexcept;

} // namespace sdkpp::rtp
