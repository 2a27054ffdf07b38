#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/result_counters.h"

namespace sdkpp::rtp {

// Every outcome of parsing, writing, sealing or opening a media packet. Malformed input is never an
// exception or a crash: it is one of these codes, and the receive path counts it (PacketCounters).
// Values are stable: they cross the addon boundary as numbers, and src/media/rtp.ts lists the same
// names in the same order.
enum class Result : uint8_t {
    kOk = 0,
    // Shorter than the 12-byte fixed RTP header.
    kTruncatedHeader,
    // The version bits are not 2.
    kBadVersion,
    // The CSRC count says more CSRCs than the packet holds.
    kCsrcPastEnd,
    // The extension preamble, its declared body, or an element inside it runs past the end.
    kExtensionPastEnd,
    // The padding bit is set but the count byte is 0 or larger than what follows the extension.
    kBadPadding,
    // Too short for the ciphertext's tag and the 4-byte nonce suffix after the clear header.
    kPacketTooShort,
    // The tag does not match: wrong key, wrong nonce, or any altered byte.
    kAuthenticationFailed,
    // A caller-owned output buffer is smaller than the size function says it must be.
    kOutputTooSmall,
    // A header to write is impossible: more than 15 CSRCs, payload type above 127, an extension body
    // that is not whole 32-bit words, or a padding size with no room for its count byte.
    kInvalidHeader,
    // Not a known transport encryption mode.
    kUnsupportedMode,
    // The transport key is not 32 bytes.
    kInvalidKeySize,
    // Input and output share memory other than in the one allowed in-place position.
    kOverlappingBuffers,
    // The crypto library failed unexpectedly.
    kBackendError,
    // An IP discovery packet whose type is neither request (1) nor response (2).
    kBadDiscoveryType,
    // An IP discovery packet that is not 74 bytes or whose length field is not 70.
    kBadDiscoveryLength,
    // An IP discovery address with no NUL terminator in its 64 bytes, or a character that is not part of
    // a textual IPv4 or IPv6 address (or, in a response, no address at all).
    kBadDiscoveryAddress,
};

inline constexpr size_t kResultCount = static_cast<size_t>(Result::kBadDiscoveryAddress) + 1;

// The stable name of a result, e.g. "ERR_RTP_BAD_VERSION" ("OK" for kOk); the JS side uses the same.
std::string_view ResultName(Result result) noexcept;

// How many times each result occurred; the owner is single-threaded.
using PacketCounters = ResultCounters<Result, kResultCount>;

} // namespace sdkpp::rtp
