#pragma once

#include <cstddef>
#include <cstdint>

#include "core/crypto/aes_gcm_stream.h"
#include "core/dave/result.h"
#include "core/opus_silence.h"
#include "core/span.h"

namespace sdkpp::dave {

// The DAVE media frame (dave-e2ee.md §1.8):
//   interleaved frame ‖ tag (8) ‖ ULEB128 nonce ‖ ULEB128 (offset, size)… ‖ supplemental size (1) ‖ FA FA
// The ranges list the bytes of the interleaved frame left in clear (they are the AEAD's additional data,
// in order); every other byte is encrypted. Opus frames have no ranges: the whole frame is encrypted.
inline constexpr size_t kTagSize = 8;
inline constexpr size_t kMarkerSize = 2;
inline constexpr uint8_t kMarkerByte = 0xFA;
// Tag, supplemental size byte and marker: the least a footer can be.
inline constexpr size_t kMinSupplementalSize = kTagSize + 1 + kMarkerSize;
inline constexpr size_t kMaxSupplementalSize = 255;
// Each range takes at least two footer bytes, so a one-byte supplemental size bounds how many there are.
inline constexpr size_t kMaxRanges = (kMaxSupplementalSize - kMinSupplementalSize - 1) / 2;

// Opus's silence frame (core/opus_silence.h) is passed through unencrypted both ways.
inline bool IsOpusSilenceFrame(ByteView frame) noexcept
{
    return sdkpp::IsOpusSilenceFrame(frame.data(), frame.size());
}

struct Range {
    size_t offset = 0;
    size_t size = 0;
};

// A parsed footer; offsets refer to the frame it came from.
struct ParsedFrame {
    size_t interleavedSize = 0;
    ByteView tag;
    uint32_t nonce = 0;
    size_t rangeCount = 0;
    Range ranges[kMaxRanges];
};

// Checks everything before any crypto: the size, the marker, the supplemental size, the nonce's ULEB128
// (at most 32 bits) and the ranges' (ascending, non-overlapping, inside the interleaved frame). Never
// reads outside `frame`.
Result ParseFrame(ByteView frame, ParsedFrame* parsed) noexcept;

// Checks ranges a sender asked to leave in clear, as ParseFrame would on the other side.
bool RangesValid(Span<const Range> ranges, size_t frameSize) noexcept;

// The footer for this nonce and these ranges; kBadRanges when it would not fit the one-byte size.
Result FooterSize(uint32_t nonce, Span<const Range> ranges, size_t* size) noexcept;

// Writes tag ‖ nonce ‖ ranges ‖ size ‖ marker at `out` (FooterSize bytes, tag already in place first).
void WriteFooterAfterTag(uint32_t nonce, Span<const Range> ranges, size_t footerSize, uint8_t* out) noexcept;

// The AES-GCM IV of a DAVE nonce: eight zero bytes, then the nonce little-endian.
void NonceToIv(uint32_t nonce, uint8_t (&iv)[crypto::kGcmIvSize]) noexcept;

// Runs one message through `stream` (already begun): the clear ranges of `input` as additional data, then
// the bytes between them through Update into the same positions of `out`, the clear ones copied. `out`
// may be `input` exactly. False on a backend failure.
bool TransformInterleaved(crypto::IGcmStream& stream,
                          ByteView input,
                          Span<const Range> clearRanges,
                          uint8_t* out) noexcept;

// True when `a` and `b` share memory anywhere other than starting at the same address.
bool OverlapsPartially(ByteView a, const uint8_t* b, size_t bSize) noexcept;

} // namespace sdkpp::dave
