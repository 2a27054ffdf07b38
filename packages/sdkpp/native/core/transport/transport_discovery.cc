// IP discovery, before the first tick: the 74-byte request to the voice server, retried, until it says
// which address and port it saw.
#include <chrono>
#include <cstring>

#include "core/rtp/ip_discovery.h"
#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

bool VoiceTransport::Impl::Discover() noexcept
{
    uint8_t request[rtp::kIpDiscoverySize] = {};
    rtp::IpDiscoveryPacket query;
    query.type = rtp::IpDiscoveryType::kRequest;
    query.ssrc = config.ssrc;
    size_t written = 0;
    if (rtp::WriteIpDiscovery(query, MutableByteView(request, sizeof(request)), &written) != rtp::Result::kOk) {
        return false;
    }
    for (uint32_t attempt = 0; attempt < config.discoveryAttempts; ++attempt) {
        if (stop.load(std::memory_order_acquire)) {
            return false;
        }
        Bump(discoveryAttempts);
        if (!socket.Send(ByteView(request, written))) {
            Bump(droppedSendFailed);
        }
        const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(config.discoveryTimeoutMs);
        while (!stop.load(std::memory_order_acquire) && Clock::now() < deadline) {
            // In slices of one tick, so that Stop() never waits out a whole discovery timeout.
            const Clock::time_point slice = Clock::now() + kTick;
            if (!socket.WaitReadable(slice < deadline ? slice : deadline)) {
                continue;
            }
            for (;;) {
                size_t got = 0;
                bool fromServer = false;
                if (!socket.Receive(MutableByteView(datagram, sizeof(datagram)), &got, &fromServer)) {
                    break;
                }
                Bump(packetsReceived);
                if (!fromServer) {
                    Bump(droppedForeignSource);
                    continue;
                }
                rtp::IpDiscoveryPacket answer;
                if (rtp::ParseIpDiscovery(ByteView(datagram, got), &answer) !=
                      rtp::Result::kOk ||
                    answer.type != rtp::IpDiscoveryType::kResponse) {
                    Bump(droppedNotRtp);
                    continue;
                }
                std::memcpy(discoveredAddress, answer.address, answer.addressSize);
                discoveredAddress[answer.addressSize] = '\0';
                discoveredPort = answer.port;
                discovered.store(true, std::memory_order_release);
                return true;
            }
        }
    }
    return false;
}

} // namespace sdkpp::transport
