// The UDP socket layer on Windows: not written yet (Winsock would go here). UdpSocketsAvailable() says so,
// and VoiceTransport::Create answers kUnsupportedPlatform before any other call of this layer; the JS
// engine's transport is what runs there. The build compiles this file on Windows only (udp_socket.h).
#include "core/transport/udp_socket.h"

namespace sdkpp::transport {

bool UdpSocketsAvailable() noexcept
{
    return false;
}

bool ParseIpv4(const char*, uint16_t, UdpAddress*) noexcept
{
    return false;
}

bool UdpSocket::Open(const UdpAddress&, const UdpAddress&, uint16_t*) noexcept
{
    return false;
}

void UdpSocket::Close() noexcept
{
    handle_ = -1; // nothing is ever opened here
}

bool UdpSocket::Send(ByteView) noexcept
{
    return false;
}

bool UdpSocket::Receive(MutableByteView, size_t*, bool*) noexcept
{
    return false;
}

bool UdpSocket::WaitReadable(std::chrono::steady_clock::time_point) noexcept
{
    return false;
}

} // namespace sdkpp::transport
