// A UDP receiver that keeps the kernel's arrival time of each datagram (SO_TIMESTAMPNS), for the pacing bench:
// timestamps taken in JavaScript would measure the receiver's own event loop as much as the sender. On
// loopback the kernel stamps a datagram as the sender's send call queues it, so the stamps are send times.
//   udp-stamps        prints "port <n>" once bound to 127.0.0.1, then on end of stdin one line per datagram:
//                     its arrival in nanoseconds (CLOCK_REALTIME), at most kMaxStamps of them.
// Linux only (SO_TIMESTAMPNS). Built by bench/lib/udpStamps.ts with the system's g++.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

constexpr std::size_t kMaxStamps = 1 << 20;

int Fail(const char* what)
{
    std::perror(what);
    return 1;
}

} // namespace

int main()
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        return Fail("socket");
    }
    const int on = 1;
    if (::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) != 0) {
        return Fail("SO_TIMESTAMPNS");
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        return Fail("bind");
    }
    std::printf("port %u\n", static_cast<unsigned>(ntohs(address.sin_port)));
    std::fflush(stdout);

    std::vector<int64_t> stamps;
    stamps.reserve(1 << 16);
    unsigned char payload[2048];
    alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(timespec)) * 2];
    pollfd waits[2] = {{STDIN_FILENO, POLLIN, 0}, {fd, POLLIN, 0}};
    for (;;) {
        if (::poll(waits, 2, -1) < 0) {
            continue; // EINTR
        }
        if (waits[1].revents & POLLIN) {
            iovec io{payload, sizeof payload};
            msghdr message{};
            message.msg_iov = &io;
            message.msg_iovlen = 1;
            message.msg_control = control;
            message.msg_controllen = sizeof control;
            if (::recvmsg(fd, &message, 0) >= 0 && stamps.size() < kMaxStamps) {
                for (cmsghdr* c = CMSG_FIRSTHDR(&message); c != nullptr; c = CMSG_NXTHDR(&message, c)) {
                    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS &&
                        c->cmsg_len >= CMSG_LEN(sizeof(timespec))) {
                        timespec at{};
                        __builtin_memcpy(&at, CMSG_DATA(c), sizeof at);
                        stamps.push_back(static_cast<int64_t>(at.tv_sec) * 1000000000 + at.tv_nsec);
                    }
                }
            }
        }
        if (waits[0].revents & (POLLIN | POLLHUP)) {
            char sink[256];
            if (::read(STDIN_FILENO, sink, sizeof sink) <= 0) {
                break;
            }
        }
    }
    for (const int64_t stamp : stamps) {
        std::printf("%lld\n", static_cast<long long>(stamp));
    }
    return 0;
}
