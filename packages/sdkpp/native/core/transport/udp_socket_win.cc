// The UDP socket layer on Windows: Winsock 2 and WSAPoll, with the contract udp_socket_posix.cc keeps
// (udp_socket.h). The build compiles this file on Windows only and links ws2_32; qWAVE, for the DSCP mark,
// is loaded at run time.
#include "core/transport/udp_socket.h"

#include "core/windows_headers.h"
#include <mswsock.h>

#include <algorithm>
#include <climits>
#include <cstring>

namespace sdkpp::transport {
namespace {

SOCKET AsSocket(intptr_t handle) noexcept
{
    return static_cast<SOCKET>(handle);
}

sockaddr_in ToSockaddr(const UdpAddress& address) noexcept
{
    sockaddr_in out{};
    out.sin_family = AF_INET;
    out.sin_port = address.port;
    out.sin_addr.s_addr = address.host;
    return out;
}

// Started once for the process and never cleaned up: a transport may be created at any time until the
// process ends, and WSACleanup would close the sockets of those still running.
bool WinsockReady() noexcept
{
    static const bool ready = [] {
        WSADATA data;
        return ::WSAStartup(MAKEWORD(2, 2), &data) == 0;
    }();
    return ready;
}

// GetProcAddress's result as the function it is. Going through a function type without parameters is the
// cast compilers accept between unrelated function pointer types.
template <typename Function>
Function Symbol(HMODULE module, const char* name) noexcept
{
    const FARPROC found = module != nullptr ? ::GetProcAddress(module, name) : nullptr;
    return reinterpret_cast<Function>(reinterpret_cast<void (*)()>(found));
}

// qWAVE's calls and constants as documented for qos2.h. mingw-w64's qos2.h cannot be included (it uses
// QOS_FLOWID before declaring it), and nothing is linked, so the addon needs only these.
struct QosVersion {
    USHORT major;
    USHORT minor;
};
constexpr int kQosTrafficTypeVoice = 4;    // QOSTrafficTypeVoice: DSCP 56 (CS7), 802.1p 7
constexpr DWORD kQosNonAdaptiveFlow = 0x2; // QOS_NON_ADAPTIVE_FLOW: the mark only, no probing of the path
using QosCreateHandle = BOOL(WINAPI*)(QosVersion*, HANDLE*);
using QosAddSocketToFlow = BOOL(WINAPI*)(HANDLE, SOCKET, sockaddr*, int, DWORD, UINT32*);
using QosCloseHandle = BOOL(WINAPI*)(HANDLE);

struct Qwave {
    QosCreateHandle createHandle = nullptr;
    QosAddSocketToFlow addSocketToFlow = nullptr;
    QosCloseHandle closeHandle = nullptr;
};

// Loaded once and kept for the process: qWAVE is an optional component (missing on some Server editions
// and under wine), and importing it would stop the whole addon from loading there. From System32 only, so
// that a qwave.dll beside the host executable (a game's folder) is never the one loaded.
const Qwave& LoadQwave() noexcept
{
    static const Qwave qwave = [] {
        const HMODULE module = ::LoadLibraryExW(L"qwave.dll", nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
        Qwave loaded;
        loaded.createHandle = Symbol<QosCreateHandle>(module, "QOSCreateHandle");
        loaded.addSocketToFlow = Symbol<QosAddSocketToFlow>(module, "QOSAddSocketToFlow");
        loaded.closeHandle = Symbol<QosCloseHandle>(module, "QOSCloseHandle");
        const bool complete =
          loaded.createHandle != nullptr && loaded.addSocketToFlow != nullptr && loaded.closeHandle != nullptr;
        return complete ? loaded : Qwave{};
    }();
    return qwave;
}

// Asks Windows to mark the socket's packets as voice. Windows ignores IP_TOS from applications; a qWAVE
// flow is the supported way, and needs no privilege. Best effort, like the rest of the transport's
// tuning: without qWAVE, or when Windows refuses, packets go unmarked (as on POSIX, where nothing is
// asked), and whether a mark survives the network is the network's business. Returns the handle that
// keeps the flow alive (closing it removes the flow), or null.
HANDLE MarkAsVoice(SOCKET udp, const UdpAddress& peer) noexcept
{
    const Qwave& qwave = LoadQwave();
    if (qwave.createHandle == nullptr) {
        return nullptr;
    }
    QosVersion version{1, 0};
    HANDLE handle = nullptr;
    if (!qwave.createHandle(&version, &handle)) {
        return nullptr;
    }
    sockaddr_in to = ToSockaddr(peer); // required: the socket is not connected
    UINT32 flow = 0;
    if (!qwave.addSocketToFlow(handle, udp, reinterpret_cast<sockaddr*>(&to), kQosTrafficTypeVoice,
                               kQosNonAdaptiveFlow, &flow)) {
        qwave.closeHandle(handle);
        return nullptr;
    }
    return handle;
}

// Windows turns an ICMP port-unreachable answer to an earlier sendto into WSAECONNRESET on a later
// recvfrom, as if UDP had connections. A voice server that restarts, or a stray probe, is not an error for
// this socket; Receive also takes the error as "no datagram" should the switch be refused.
void IgnoreIcmpResets(SOCKET udp) noexcept
{
    BOOL report = FALSE;
    DWORD returned = 0;
    ::WSAIoctl(udp, SIO_UDP_CONNRESET, &report, sizeof(report), nullptr, 0, &returned, nullptr, nullptr);
}

// Otherwise a program of the same user could bind the port too (SO_REUSEADDR) and take the call's
// datagrams. Best effort: a port bound without it still works.
void KeepPortToItself(SOCKET udp) noexcept
{
    const BOOL exclusive = TRUE;
    ::setsockopt(udp, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&exclusive),
                 sizeof(exclusive));
}

bool BindNonBlocking(SOCKET udp, const UdpAddress& local, uint16_t* localPort) noexcept
{
    u_long nonBlocking = 1;
    const sockaddr_in bindTo = ToSockaddr(local);
    sockaddr_in bound{};
    int boundSize = sizeof(bound);
    // FIONBIO is an unsigned code with the top bit set; ioctlsocket takes it as a long.
    if (::ioctlsocket(udp, static_cast<long>(FIONBIO), &nonBlocking) != 0 ||
        ::bind(udp, reinterpret_cast<const sockaddr*>(&bindTo), sizeof(bindTo)) != 0 ||
        ::getsockname(udp, reinterpret_cast<sockaddr*>(&bound), &boundSize) != 0) {
        return false;
    }
    *localPort = ntohs(bound.sin_port);
    return true;
}

} // namespace

bool UdpSocketsAvailable() noexcept
{
    return WinsockReady();
}

bool ParseIpv4(const char* host, uint16_t port, UdpAddress* out) noexcept
{
    in_addr parsed;
    std::memset(&parsed, 0, sizeof(parsed));
    if (::inet_pton(AF_INET, host, &parsed) != 1) {
        return false;
    }
    out->host = parsed.s_addr;
    out->port = htons(port);
    return true;
}

bool UdpSocket::Open(const UdpAddress& local, const UdpAddress& peer, uint16_t* localPort) noexcept
{
    Close();
    if (!WinsockReady()) {
        return false;
    }
    // Not inheritable: a child process started while the call runs would otherwise hold the port after Close.
    const SOCKET udp = ::WSASocketW(AF_INET, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, WSA_FLAG_NO_HANDLE_INHERIT);
    if (udp == INVALID_SOCKET) {
        return false;
    }
    KeepPortToItself(udp);
    IgnoreIcmpResets(udp);
    if (!BindNonBlocking(udp, local, localPort)) {
        ::closesocket(udp);
        return false;
    }
    handle_ = static_cast<intptr_t>(udp);
    peer_ = peer;
    qos_ = MarkAsVoice(udp, peer);
    return true;
}

void UdpSocket::Close() noexcept
{
    if (qos_ != nullptr) {
        LoadQwave().closeHandle(qos_);
        qos_ = nullptr;
    }
    if (handle_ != -1) {
        ::closesocket(AsSocket(handle_));
        handle_ = -1;
    }
}

bool UdpSocket::Send(ByteView datagram) noexcept
{
    if (datagram.size() > static_cast<size_t>(INT_MAX)) {
        return false;
    }
    const sockaddr_in to = ToSockaddr(peer_);
    return ::sendto(AsSocket(handle_), reinterpret_cast<const char*>(datagram.data()),
                    static_cast<int>(datagram.size()), 0, reinterpret_cast<const sockaddr*>(&to),
                    sizeof(to)) != SOCKET_ERROR;
}

bool UdpSocket::Receive(MutableByteView buffer, size_t* size, bool* fromPeer) noexcept
{
    const int capacity = static_cast<int>(std::min(buffer.size(), static_cast<size_t>(INT_MAX)));
    sockaddr_in from{};
    int fromSize = sizeof(from);
    int got = ::recvfrom(AsSocket(handle_), reinterpret_cast<char*>(buffer.data()), capacity, 0,
                         reinterpret_cast<sockaddr*>(&from), &fromSize);
    if (got == SOCKET_ERROR) {
        // WSAEMSGSIZE: the datagram was longer than the buffer, which holds its first part (POSIX cuts it
        // the same way, silently). Anything else, WSAEWOULDBLOCK and a stray WSAECONNRESET included, means
        // nothing to read now.
        if (::WSAGetLastError() != WSAEMSGSIZE) {
            return false;
        }
        got = capacity;
    }
    *size = static_cast<size_t>(got);
    *fromPeer = fromSize == static_cast<int>(sizeof(from)) && from.sin_family == AF_INET &&
                from.sin_addr.s_addr == peer_.host && from.sin_port == peer_.port;
    return true;
}

bool UdpSocket::WaitReadable(std::chrono::steady_clock::time_point deadline) noexcept
{
    const auto remaining = deadline - std::chrono::steady_clock::now();
    if (remaining <= std::chrono::steady_clock::duration::zero()) {
        return false;
    }
    // WSAPoll waits in whole milliseconds: rounded up, so the tick is at most 1 ms late, never early (as
    // fine as that only with the 1 ms timer resolution the transport thread asks for, thread_priority_win.cc).
    const auto ms = std::min<std::chrono::milliseconds::rep>(
      std::chrono::ceil<std::chrono::milliseconds>(remaining).count(), INT_MAX);
    WSAPOLLFD entry{};
    entry.fd = AsSocket(handle_);
    entry.events = POLLRDNORM;
    const int ready = ::WSAPoll(&entry, 1, static_cast<INT>(ms));
    // An error is reported as readable too: only a read clears it, and otherwise every wait until the
    // deadline would return at once.
    return ready > 0 && (entry.revents & (POLLRDNORM | POLLERR)) != 0;
}

} // namespace sdkpp::transport
