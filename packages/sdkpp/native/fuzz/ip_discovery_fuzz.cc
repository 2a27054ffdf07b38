// ParseIpDiscovery on raw bytes. What parses must survive WriteIpDiscovery and parse again to the same
// fields, and the writer must refuse one byte too few.
#include <cstring>

#include "core/rtp/ip_discovery.h"
#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {

void FuzzIpDiscovery(const uint8_t* data, size_t size)
{
    using namespace sdkpp::rtp;
    IpDiscoveryPacket packet;
    if (ParseIpDiscovery({data, size}, &packet) != Result::kOk) {
        return;
    }
    SDKPP_FUZZ_CHECK(size == kIpDiscoverySize && packet.addressSize <= kIpDiscoveryMaxAddress);

    uint8_t out[kIpDiscoverySize];
    size_t written = 0;
    SDKPP_FUZZ_CHECK(WriteIpDiscovery(packet, {out, kIpDiscoverySize - 1}, &written) ==
                     Result::kOutputTooSmall);
    const Result writeResult = WriteIpDiscovery(packet, out, &written);
    // A request may carry an empty address, a response may not: the parser and the writer agree on that.
    SDKPP_FUZZ_CHECK(writeResult == Result::kOk && written == kIpDiscoverySize);
    IpDiscoveryPacket again;
    SDKPP_FUZZ_CHECK(ParseIpDiscovery(out, &again) == Result::kOk);
    SDKPP_FUZZ_CHECK(again.type == packet.type && again.ssrc == packet.ssrc && again.port == packet.port &&
                     again.addressSize == packet.addressSize &&
                     std::memcmp(again.address, packet.address, packet.addressSize) == 0);
}

} // namespace sdkpp::fuzz
