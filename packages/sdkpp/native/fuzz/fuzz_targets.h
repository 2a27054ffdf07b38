#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

// The fuzz targets of native/core: each takes one input of any length and any content and must neither
// crash, nor read past a buffer, nor break one of its own round-trip properties (that aborts). They are
// plain functions so that three drivers share them: libFuzzer (libfuzzer_entry.cc), the g++ random driver
// (random_driver.cc) and the sanitizer test driver (native/test/native_tests.cc), which replays every seed
// and every regression input. Run them with `npm run fuzz -- <name> <seconds>`.
namespace sdkpp::fuzz {

using FuzzFunction = void (*)(const uint8_t* data, size_t size);

struct FuzzTarget {
    std::string_view name; // also the folder of its seeds and regression inputs
    FuzzFunction run;
};

// ParseRtpPacket, ParseClearHeader + SplitBody and the extension reader (both profiles) on raw bytes.
void FuzzRtpPacket(const uint8_t* data, size_t size);
// TransportCryptor::Open of raw bytes in both modes, into an exact-size buffer and in place.
void FuzzTransportOpen(const uint8_t* data, size_t size);
// A header, extension body and payload built from the input, sealed and opened again in both modes: the
// opened packet must equal what was sealed, and one flipped bit must fail authentication.
void FuzzTransportSeal(const uint8_t* data, size_t size);
// ParseIpDiscovery; whatever parses must write back and parse to the same fields.
void FuzzIpDiscovery(const uint8_t* data, size_t size);
// dave::ParseFrame and Decryptor::Decrypt (keyed, passthrough off) on raw bytes, into an exact-size
// buffer and in place, with the same outcome both ways.
void FuzzDaveFrame(const uint8_t* data, size_t size);
// A frame and clear ranges from the input, encrypted and decrypted again: equal, then a replay and a
// flipped bit refused.
void FuzzDaveSeal(const uint8_t* data, size_t size);
// A run of jitter buffer pushes (sequence, timestamp and payload from the input, in any order) and pops
// (into exact-size buffers, some too small): bounded, never past a buffer.
void FuzzJitterBuffer(const uint8_t* data, size_t size);
// OpusDecoder::Decode (with and without FEC) and Conceal on any payload, into exact-size PCM buffers.
void FuzzOpusDecode(const uint8_t* data, size_t size);
// P256Verify, SharedSecret, PublicPoint and Sign on points, signatures and scalars of any size and content:
// sign-then-verify and both sides of an agreement must hold wherever a scalar is valid.
void FuzzP256(const uint8_t* data, size_t size);

// Adding a target: write its function, add one line here, and give it seeds in scripts/native-fuzz.mjs.
inline constexpr FuzzTarget kFuzzTargets[] = {
    {"rtp_packet", FuzzRtpPacket},
    {"transport_open", FuzzTransportOpen},
    {"transport_seal", FuzzTransportSeal},
    {"ip_discovery", FuzzIpDiscovery},
    {"dave_frame", FuzzDaveFrame},
    {"dave_seal", FuzzDaveSeal},
    {"jitter_buffer", FuzzJitterBuffer},
    {"opus_decode", FuzzOpusDecode},
    {"p256", FuzzP256},
};

inline const FuzzTarget* FindFuzzTarget(std::string_view name) noexcept
{
    for (const FuzzTarget& target : kFuzzTargets) {
        if (target.name == name) {
            return &target;
        }
    }
    return nullptr;
}

// Whether [offset, offset + length) lies inside `total` bytes, without the sum that could wrap around.
constexpr bool Inside(size_t offset, size_t length, size_t total) noexcept
{
    return offset <= total && length <= total - offset;
}

// A broken property is a crash: the message names it, and abort() is what every driver reports.
[[noreturn]] void FuzzFailure(const char* file, int line, const char* condition);

} // namespace sdkpp::fuzz

#define SDKPP_FUZZ_CHECK(condition)                                                                     \
    do {                                                                                                \
        if (!(condition)) {                                                                             \
            ::sdkpp::fuzz::FuzzFailure(__FILE__, __LINE__, #condition);                                 \
        }                                                                                               \
    } while (false)
