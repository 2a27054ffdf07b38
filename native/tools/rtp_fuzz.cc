// A sanitizer run of native/core/rtp over random datagrams: every receive-path entry point (transport
// Open in both modes, ParseRtpPacket, ExtensionReader, ParseIpDiscovery) is fed exact-size heap buffers,
// so that AddressSanitizer stops at the first byte read past one. Not part of the addon build (which
// compiles core/ and napi/ only); run it by hand after changing the parsers. It links the system
// libcrypto (libssl-dev), so its headers must match Node's: same OpenSSL 3 major version.
//
// From the repository root, as one command:
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
//     -I"$(node -p "require('path').resolve(process.execPath, '../../include/node')")" -Inative
//     native/tools/rtp_fuzz.cc native/core/rtp/*.cc native/core/crypto/*.cc native/core/hex.cc
//     -lcrypto -o build/rtp_fuzz && build/rtp_fuzz
//
// Exits non-zero when the C++ unit tests (RunTransportSelfTest) fail or a sanitizer fires.

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>

#include "core/rtp/extension.h"
#include "core/rtp/ip_discovery.h"
#include "core/rtp/transport_cryptor.h"
#include "core/rtp/transport_selftest.h"

namespace {

using namespace sdkpp;

void DrainExtension(uint16_t profile, ByteView body)
{
    rtp::ExtensionReader reader(profile, body);
    rtp::ExtensionElement element;
    bool done = false;
    while (reader.Next(&element, &done) == rtp::Result::kOk && !done) {
        // Touch the last byte of every element, where an overread would show.
        volatile uint8_t last = element.data.empty() ? 0 : element.data[element.data.size() - 1];
        (void)last;
    }
}

} // namespace

int main()
{
    const rtp::TransportSelfTestReport report = rtp::RunTransportSelfTest();
    for (size_t i = 0; i < report.count; ++i) {
        std::printf("%-45s %s\n", report.checks[i].name.data(), report.checks[i].ok ? "ok" : "FAILED");
    }
    const uint8_t key[rtp::kTransportKeySize] = {};
    const auto aes = rtp::TransportCryptor::Create(rtp::TransportMode::kAeadAes256GcmRtpSize, key);
    const auto xchacha =
      rtp::TransportCryptor::Create(rtp::TransportMode::kAeadXChaCha20Poly1305RtpSize, key);
    if (!report.Ok() || !aes || !xchacha) {
        return 1;
    }
    std::mt19937_64 random(42);
    constexpr int kRounds = 200000;
    for (int round = 0; round < kRounds; ++round) {
        const size_t size = static_cast<size_t>(random() % 120);
        std::unique_ptr<uint8_t[]> data(new uint8_t[size == 0 ? 1 : size]);
        for (size_t i = 0; i < size; ++i) {
            data[i] = static_cast<uint8_t>(random());
        }
        // Half the datagrams claim version 2, so that they get past the first check.
        if (size > 0 && round % 2 == 1) {
            data[0] = static_cast<uint8_t>(0x80 | (data[0] & 0x3F));
        }
        const ByteView packet{data.get(), size};
        const size_t outSize = rtp::TransportCryptor::MaxPlaintextSize(size);
        std::unique_ptr<uint8_t[]> out(new uint8_t[outSize == 0 ? 1 : outSize]);
        rtp::OpenedPacket opened;
        (round % 3 == 0 ? xchacha : aes)->Open(packet, {out.get(), outSize}, &opened);
        rtp::RtpPacketView view;
        if (rtp::ParseRtpPacket(packet, &view) == rtp::Result::kOk && view.header.hasExtension) {
            const ByteView body{data.get() + view.extensionOffset, view.extensionSize};
            DrainExtension(view.header.extensionProfile, body);
        }
        rtp::IpDiscoveryPacket discovery;
        rtp::ParseIpDiscovery(packet, &discovery);
        const uint16_t profile =
          round % 2 == 0 ? rtp::kOneByteExtensionProfile : rtp::kTwoByteExtensionProfile;
        DrainExtension(profile, packet);
    }
    std::printf("%d random datagrams: %llu refused, %llu opened\n", kRounds,
                static_cast<unsigned long long>(aes->Counters().Failures() + xchacha->Counters().Failures()),
                static_cast<unsigned long long>(aes->Counters().Get(rtp::Result::kOk) +
                                                xchacha->Counters().Get(rtp::Result::kOk)));
    return 0;
}
