// The transport self-test's reflector socket on Windows: Winsock 2 and WSAPoll, with the contract
// selftest_reflector_posix.cc keeps (selftest_reflector.h). The build compiles this file on Windows only.
#include "core/transport/selftest_reflector.h"

#include "core/windows_headers.h"

#include <algorithm>
#include <climits>

namespace sdkpp::transport {
namespace {

SOCKET AsSocket(intptr_t handle) noexcept
{
    return static_cast<SOCKET>(handle);
}

} // namespace

bool ReflectorSocket::Open(uint16_t* port) noexcept
{
    Close();
    // Starts Winsock, once for the process, as the transport's own socket layer does.
    if (!UdpSocketsAvailable()) {
        return false;
    }
    const SOCKET udp = ::socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    if (udp == INVALID_SOCKET) {
        return false;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int size = sizeof(address);
    if (::bind(udp, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
        ::getsockname(udp, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
        ::closesocket(udp);
        return false;
    }
    handle_ = static_cast<intptr_t>(udp);
    *port = ntohs(address.sin_port);
    return true;
}

void ReflectorSocket::Close() noexcept
{
    if (handle_ != -1) {
        ::closesocket(AsSocket(handle_));
        handle_ = -1;
    }
}

bool ReflectorSocket::WaitReadable(int timeoutMs) noexcept
{
    WSAPOLLFD entry{};
    entry.fd = AsSocket(handle_);
    entry.events = POLLRDNORM;
    return ::WSAPoll(&entry, 1, timeoutMs) > 0;
}

bool ReflectorSocket::ReceiveFrom(MutableByteView buffer, size_t* size, UdpAddress* from) noexcept
{
    const int capacity = static_cast<int>(std::min(buffer.size(), static_cast<size_t>(INT_MAX)));
    sockaddr_in sender{};
    int senderSize = sizeof(sender);
    int got = ::recvfrom(AsSocket(handle_), reinterpret_cast<char*>(buffer.data()), capacity, 0,
                         reinterpret_cast<sockaddr*>(&sender), &senderSize);
    if (got == SOCKET_ERROR) {
        // WSAEMSGSIZE: the buffer holds the datagram's first part, as POSIX cuts it. Anything else is
        // dropped, WSAECONNRESET included: Windows reports so an ICMP port-unreachable for an earlier answer
        // (to a transport socket closed since), and the next read gets the next datagram.
        if (::WSAGetLastError() != WSAEMSGSIZE) {
            return false;
        }
        got = capacity;
    }
    *size = static_cast<size_t>(got);
    from->host = sender.sin_addr.s_addr;
    from->port = sender.sin_port;
    return true;
}

void ReflectorSocket::SendTo(ByteView datagram, const UdpAddress& to) noexcept
{
    if (datagram.size() > static_cast<size_t>(INT_MAX)) {
        return;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = to.port;
    address.sin_addr.s_addr = to.host;
    ::sendto(AsSocket(handle_), reinterpret_cast<const char*>(datagram.data()), static_cast<int>(datagram.size()),
             0, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
}

uint16_t ReflectorSocket::PortOf(const UdpAddress& address) noexcept
{
    return ntohs(address.port);
}

} // namespace sdkpp::transport
