#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::transport {

// The operating system's UDP, as far as the voice transport needs it: one non-blocking IPv4 socket that
// talks to one peer (the voice server), and a wait for a datagram with a deadline. One implementation per
// OS, picked by the build from the file name (binding.gyp, CMakeLists.txt, scripts/native-sanitize.mjs):
// udp_socket_posix.cc (Linux, macOS: BSD sockets) and udp_socket_win.cc (Windows: Winsock 2).

// An IPv4 address and port, both in network byte order: the transport only stores, compares and passes them.
struct UdpAddress {
    uint32_t host = 0;
    uint16_t port = 0;
};

// False when the OS's socket layer cannot be used at all (on Windows: Winsock would not start), so that
// VoiceTransport::Create can say so before any other call of this layer.
bool UdpSocketsAvailable() noexcept;

// Dotted IPv4 only ("127.0.0.1"), as inet_pton reads it; false for anything else.
bool ParseIpv4(const char* host, uint16_t port, UdpAddress* out) noexcept;

class UdpSocket {
public:
    UdpSocket() noexcept = default;
    ~UdpSocket() { Close(); }
    UdpSocket(const UdpSocket&) = delete;
    UdpSocket& operator=(const UdpSocket&) = delete;

    // A non-blocking socket bound to `local` (port 0: any free port) that sends to `peer`; *localPort is
    // the port it got. False, with nothing left open, when any step fails.
    bool Open(const UdpAddress& local, const UdpAddress& peer, uint16_t* localPort) noexcept;
    // Nothing when no socket is open.
    void Close() noexcept;

    // One datagram to the peer; false when the OS refused it.
    bool Send(ByteView datagram) noexcept;
    // Reads one waiting datagram into `buffer` (a longer one is cut to fit): false when none is waiting,
    // or on an error the next wait shows again. *fromPeer says whether it came from the peer's address
    // and port; a stranger's datagram is read all the same, so that the caller can count it.
    bool Receive(MutableByteView buffer, size_t* size, bool* fromPeer) noexcept;
    // Waits until a datagram can be read (true) or `deadline` passes (false, as after an interrupted wait:
    // callers loop until their deadline). Where the OS waits in whole milliseconds the wait is rounded up,
    // so a tick is at most 1 ms late, never early.
    bool WaitReadable(std::chrono::steady_clock::time_point deadline) noexcept;

private:
    intptr_t handle_ = -1; // a file descriptor (POSIX) or a SOCKET (Windows); -1 when closed
    UdpAddress peer_{};
#if defined(_WIN32)
    // The socket's own qWAVE handle (DSCP marking): closing it removes the flow, so it lives as long as the
    // socket. Null when qWAVE is absent or refused.
    void* qos_ = nullptr;
#endif
};

} // namespace sdkpp::transport
