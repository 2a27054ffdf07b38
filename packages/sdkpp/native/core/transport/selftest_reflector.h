#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"
#include "core/transport/udp_socket.h"

namespace sdkpp::transport {

// The OS's part of the transport self-test's reflector (transport_thread_selftest.cc), a voice server in
// miniature. UdpSocket cannot be it: a UdpSocket talks to one peer fixed when it opens, while the reflector
// answers whoever wrote to it, at a port it learns only from that datagram. One implementation per OS,
// picked by the build from the file name (as udp_socket.h's): selftest_reflector_posix.cc and
// selftest_reflector_win.cc.
class ReflectorSocket {
public:
    ReflectorSocket() noexcept = default;
    ~ReflectorSocket() { Close(); }
    ReflectorSocket(const ReflectorSocket&) = delete;
    ReflectorSocket& operator=(const ReflectorSocket&) = delete;

    // A blocking socket bound to 127.0.0.1 at any free port; *port is that port. False, with nothing left
    // open, when any step fails.
    bool Open(uint16_t* port) noexcept;
    // Nothing when no socket is open.
    void Close() noexcept;

    // Waits up to `timeoutMs` for a datagram; false when none came (or the wait failed).
    bool WaitReadable(int timeoutMs) noexcept;
    // Reads one datagram into `buffer` (a longer one is cut to fit) and who sent it; false when none was
    // read.
    bool ReceiveFrom(MutableByteView buffer, size_t* size, UdpAddress* from) noexcept;
    // Best effort, as a server's answer is: a refused datagram is simply not sent.
    void SendTo(ByteView datagram, const UdpAddress& to) noexcept;

    // `address`'s port in host byte order, as an IP discovery answer carries it.
    static uint16_t PortOf(const UdpAddress& address) noexcept;

private:
    intptr_t handle_ = -1; // a file descriptor (POSIX) or a SOCKET (Windows); -1 when closed
};

} // namespace sdkpp::transport
