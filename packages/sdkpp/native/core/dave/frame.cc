#include "core/dave/frame.h"

#include <cstring>

#include "core/dave/leb128.h"

namespace sdkpp::dave {

Result ParseFrame(ByteView frame, ParsedFrame* parsed) noexcept
{
    const size_t size = frame.size();
    if (size < kMinSupplementalSize) {
        return Result::kFrameTooShort;
    }
    if (frame[size - 1] != kMarkerByte || frame[size - 2] != kMarkerByte) {
        return Result::kBadMarker;
    }
    const size_t supplemental = frame[size - kMarkerSize - 1];
    if (supplemental < kMinSupplementalSize || supplemental > size) {
        return Result::kBadSupplementalSize;
    }
    const size_t interleavedSize = size - supplemental;
    // The varints sit between the tag and the size byte; reading is confined to exactly that region.
    const ByteView varints{frame.data() + interleavedSize + kTagSize, supplemental - kMinSupplementalSize};
    size_t offset = 0;
    uint64_t nonce = 0;
    if (!ReadLeb128(varints, &offset, &nonce) || nonce > UINT32_MAX) {
        return Result::kBadNonce;
    }
    size_t count = 0;
    size_t previousEnd = 0;
    while (offset < varints.size()) {
        uint64_t rangeOffset = 0;
        uint64_t rangeSize = 0;
        if (count == kMaxRanges || !ReadLeb128(varints, &offset, &rangeOffset) ||
            !ReadLeb128(varints, &offset, &rangeSize)) {
            return Result::kBadRanges;
        }
        // Written so that no sum can overflow: each bound is checked against the frame first.
        if (rangeOffset < previousEnd || rangeOffset > interleavedSize ||
            rangeSize > interleavedSize - rangeOffset) {
            return Result::kBadRanges;
        }
        parsed->ranges[count].offset = static_cast<size_t>(rangeOffset);
        parsed->ranges[count].size = static_cast<size_t>(rangeSize);
        previousEnd = static_cast<size_t>(rangeOffset + rangeSize);
        ++count;
    }
    parsed->interleavedSize = interleavedSize;
    parsed->tag = ByteView{frame.data() + interleavedSize, kTagSize};
    parsed->nonce = static_cast<uint32_t>(nonce);
    parsed->rangeCount = count;
    return Result::kOk;
}

bool RangesValid(Span<const Range> ranges, size_t frameSize) noexcept
{
    if (ranges.size() > kMaxRanges) {
        return false;
    }
    size_t previousEnd = 0;
    for (const Range& range : ranges) {
        if (range.offset < previousEnd || range.offset > frameSize || range.size > frameSize - range.offset) {
            return false;
        }
        previousEnd = range.offset + range.size;
    }
    return true;
}

Result FooterSize(uint32_t nonce, Span<const Range> ranges, size_t* size) noexcept
{
    size_t total = kMinSupplementalSize + Leb128Size(nonce);
    for (const Range& range : ranges) {
        total += Leb128Size(range.offset) + Leb128Size(range.size);
        if (total > kMaxSupplementalSize) {
            return Result::kBadRanges;
        }
    }
    if (total > kMaxSupplementalSize) {
        return Result::kBadRanges;
    }
    *size = total;
    return Result::kOk;
}

void WriteFooterAfterTag(uint32_t nonce, Span<const Range> ranges, size_t footerSize, uint8_t* out) noexcept
{
    size_t position = kTagSize;
    position += WriteLeb128(nonce, out + position);
    for (const Range& range : ranges) {
        position += WriteLeb128(range.offset, out + position);
        position += WriteLeb128(range.size, out + position);
    }
    out[position++] = static_cast<uint8_t>(footerSize);
    out[position++] = kMarkerByte;
    out[position] = kMarkerByte;
}

void NonceToIv(uint32_t nonce, uint8_t (&iv)[crypto::kGcmIvSize]) noexcept
{
    std::memset(iv, 0, sizeof(iv));
    iv[8] = static_cast<uint8_t>(nonce);
    iv[9] = static_cast<uint8_t>(nonce >> 8);
    iv[10] = static_cast<uint8_t>(nonce >> 16);
    iv[11] = static_cast<uint8_t>(nonce >> 24);
}

bool TransformInterleaved(crypto::IGcmStream& stream,
                          ByteView input,
                          Span<const Range> clearRanges,
                          uint8_t* out) noexcept
{
    // GCM takes all additional data before the first ciphertext byte, so two passes over the ranges.
    for (const Range& range : clearRanges) {
        if (!stream.Aad(ByteView{input.data() + range.offset, range.size})) {
            return false;
        }
    }
    size_t position = 0;
    for (const Range& range : clearRanges) {
        if (!stream.Update(ByteView{input.data() + position, range.offset - position}, out + position)) {
            return false;
        }
        if (out != input.data() && range.size > 0) {
            std::memcpy(out + range.offset, input.data() + range.offset, range.size);
        }
        position = range.offset + range.size;
    }
    return stream.Update(ByteView{input.data() + position, input.size() - position}, out + position);
}

bool OverlapsPartially(ByteView a, const uint8_t* b, size_t bSize) noexcept
{
    if (a.empty() || bSize == 0) {
        return false;
    }
    const auto start = reinterpret_cast<uintptr_t>(a.data());
    const auto other = reinterpret_cast<uintptr_t>(b);
    return start != other && start < other + bSize && other < start + a.size();
}

} // namespace sdkpp::dave
