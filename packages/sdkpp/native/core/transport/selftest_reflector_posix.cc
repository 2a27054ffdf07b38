// The transport self-test's reflector socket on POSIX systems (Linux, macOS): BSD sockets and poll. The
// build compiles this file everywhere but Windows (selftest_reflector.h).
#include "core/transport/selftest_reflector.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sdkpp::transport {

bool ReflectorSocket::Open(uint16_t* port) noexcept
{
    Close();
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        return false;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(address);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
        ::close(fd);
        return false;
    }
    handle_ = fd;
    *port = ntohs(address.sin_port);
    return true;
}

void ReflectorSocket::Close() noexcept
{
    if (handle_ >= 0) {
        ::close(static_cast<int>(handle_));
        handle_ = -1;
    }
}

bool ReflectorSocket::WaitReadable(int timeoutMs) noexcept
{
    pollfd entry{static_cast<int>(handle_), POLLIN, 0};
    return ::poll(&entry, 1, timeoutMs) > 0;
}

bool ReflectorSocket::ReceiveFrom(MutableByteView buffer, size_t* size, UdpAddress* from) noexcept
{
    sockaddr_in sender{};
    socklen_t senderSize = sizeof(sender);
    const ssize_t got = ::recvfrom(static_cast<int>(handle_), buffer.data(), buffer.size(), 0,
                                   reinterpret_cast<sockaddr*>(&sender), &senderSize);
    if (got < 0) {
        return false;
    }
    *size = static_cast<size_t>(got);
    from->host = sender.sin_addr.s_addr;
    from->port = sender.sin_port;
    return true;
}

void ReflectorSocket::SendTo(ByteView datagram, const UdpAddress& to) noexcept
{
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = to.port;
    address.sin_addr.s_addr = to.host;
    ::sendto(static_cast<int>(handle_), datagram.data(), datagram.size(), 0,
             reinterpret_cast<const sockaddr*>(&address), sizeof(address));
}

uint16_t ReflectorSocket::PortOf(const UdpAddress& address) noexcept
{
    return ntohs(address.port);
}

} // namespace sdkpp::transport
