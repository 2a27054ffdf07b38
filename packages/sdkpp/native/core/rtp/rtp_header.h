#pragma once

#include <cstddef>
#include <cstdint>

#include "core/rtp/result.h"
#include "core/span.h"

namespace sdkpp::rtp {

inline constexpr size_t kFixedHeaderSize = 12;
inline constexpr size_t kMaxCsrcs = 15;
inline constexpr size_t kExtensionPreambleSize = 4;
inline constexpr uint8_t kRtpVersion = 2;
inline constexpr uint8_t kOpusPayloadType = 120;
// RFC 8285 profiles: one-byte elements, and two-byte elements (0x100 followed by 4 application bits).
inline constexpr uint16_t kOneByteExtensionProfile = 0xBEDE;
inline constexpr uint16_t kTwoByteExtensionProfile = 0x1000;
inline constexpr uint16_t kTwoByteExtensionProfileMask = 0xFFF0;

// The fields of an RTP header (RFC 3550 §5.1). The version is always 2.
struct RtpHeader {
    bool marker = false;
    uint8_t payloadType = kOpusPayloadType; // 0..127
    uint16_t sequence = 0;
    uint32_t timestamp = 0;
    uint32_t ssrc = 0;
    uint8_t csrcCount = 0; // 0..15, the number of valid entries in `csrcs`
    uint32_t csrcs[kMaxCsrcs] = {};
    bool hasExtension = false; // the X bit
    uint16_t extensionProfile = 0;
    uint16_t extensionWords = 0; // the extension body's length in 32-bit words
    // Bytes of padding at the end of the payload, the count byte included; the P bit is set iff > 0.
    // Parsers fill it once the padding's count byte has been read (after decryption in the rtpsize modes).
    uint8_t paddingSize = 0;
};

// Where the parts of an RTP packet are. Offsets are from the start of the buffer that was parsed.
struct RtpPacketView {
    RtpHeader header;
    size_t extensionOffset = 0; // the extension body (after the preamble)
    size_t extensionSize = 0;
    size_t payloadOffset = 0;
    size_t payloadSize = 0; // without padding
};

// 12 + 4*CC + (X ? 4 : 0): what precedes the extension body. In the rtpsize transport modes these are
// exactly the bytes left in clear and authenticated as AAD.
size_t ClearHeaderSize(const RtpHeader& header) noexcept;

// 4 * extensionWords when X is set, else 0.
size_t ExtensionBodySize(const RtpHeader& header) noexcept;

// Writes the clear header (fixed part, CSRCs, extension preamble; not the extension body). kInvalidHeader
// for an impossible header, kOutputTooSmall when `out` is shorter than ClearHeaderSize.
Result WriteClearHeader(const RtpHeader& header, MutableByteView out, size_t* written) noexcept;

// Reads the clear header of `packet`. `header->paddingSize` is 1 when the P bit is set (its real value
// lies at the end of the payload, which may still be encrypted) and 0 otherwise. Checks: at least 12
// bytes, version 2, the CSRCs and the extension preamble inside the packet. The body is not checked.
Result ParseClearHeader(ByteView packet, RtpHeader* header, size_t* clearSize) noexcept;

// Splits what follows the clear header (extension body || payload || padding) once it is readable:
// the body must fit (kExtensionPastEnd) and a padding count must be 1..what remains (kBadPadding).
// `header->paddingSize` is set to the count read. Offsets are relative to `body`.
Result SplitBody(RtpHeader* header, ByteView body, RtpPacketView* view) noexcept;

// A whole unencrypted RTP packet (RFC 3550): ParseClearHeader, then SplitBody; offsets from `packet`.
Result ParseRtpPacket(ByteView packet, RtpPacketView* view) noexcept;

} // namespace sdkpp::rtp
