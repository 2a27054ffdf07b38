// The UDP socket layer on POSIX systems (Linux, macOS): BSD sockets and poll. The build compiles this file
// everywhere but Windows (udp_socket.h).
#include "core/transport/udp_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace sdkpp::transport {
namespace {

sockaddr_in ToSockaddr(const UdpAddress& address) noexcept
{
    sockaddr_in out{};
    out.sin_family = AF_INET;
    out.sin_port = address.port;
    out.sin_addr.s_addr = address.host;
    return out;
}

} // namespace

bool UdpSocketsAvailable() noexcept
{
    return true;
}

bool ParseIpv4(const char* host, uint16_t port, UdpAddress* out) noexcept
{
    sockaddr_in parsed;
    std::memset(&parsed, 0, sizeof(parsed));
    if (inet_pton(AF_INET, host, &parsed.sin_addr) != 1) {
        return false;
    }
    out->host = parsed.sin_addr.s_addr;
    out->port = htons(port);
    return true;
}

bool UdpSocket::Open(const UdpAddress& local, const UdpAddress& peer, uint16_t* localPort) noexcept
{
    Close();
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        return false;
    }
    const sockaddr_in bindTo = ToSockaddr(local);
    sockaddr_in bound{};
    socklen_t boundSize = sizeof(bound);
    const int flags = ::fcntl(fd, F_GETFL, 0);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 ||
        ::bind(fd, reinterpret_cast<const sockaddr*>(&bindTo), sizeof(bindTo)) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &boundSize) != 0) {
        ::close(fd);
        return false;
    }
    handle_ = fd;
    peer_ = peer;
    *localPort = ntohs(bound.sin_port);
    return true;
}

void UdpSocket::Close() noexcept
{
    if (handle_ >= 0) {
        ::close(static_cast<int>(handle_));
        handle_ = -1;
    }
}

bool UdpSocket::Send(ByteView datagram) noexcept
{
    const sockaddr_in to = ToSockaddr(peer_);
    return ::sendto(static_cast<int>(handle_), datagram.data(), datagram.size(), 0,
                    reinterpret_cast<const sockaddr*>(&to), sizeof(to)) >= 0;
}

bool UdpSocket::Receive(MutableByteView buffer, size_t* size, bool* fromPeer) noexcept
{
    sockaddr_in from{};
    socklen_t fromSize = sizeof(from);
    const ssize_t got = ::recvfrom(static_cast<int>(handle_), buffer.data(), buffer.size(), 0,
                                   reinterpret_cast<sockaddr*>(&from), &fromSize);
    if (got < 0) {
        return false; // EAGAIN: drained (or an error the next poll will show again)
    }
    *size = static_cast<size_t>(got);
    *fromPeer = fromSize == sizeof(from) && from.sin_family == AF_INET && from.sin_addr.s_addr == peer_.host &&
                from.sin_port == peer_.port;
    return true;
}

bool UdpSocket::WaitReadable(std::chrono::steady_clock::time_point deadline) noexcept
{
    const auto remaining = deadline - std::chrono::steady_clock::now();
    if (remaining <= std::chrono::steady_clock::duration::zero()) {
        return false;
    }
    pollfd entry{static_cast<int>(handle_), POLLIN, 0};
#if defined(__linux__)
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(remaining).count();
    timespec timeout{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    const int ready = ::ppoll(&entry, 1, &timeout, nullptr);
#else
    // poll() has millisecond resolution: round up, so the tick is at most 1 ms late, never early.
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining).count() + 1;
    const int ready = ::poll(&entry, 1, static_cast<int>(ms));
#endif
    return ready > 0 && (entry.revents & POLLIN) != 0;
}

} // namespace sdkpp::transport
