#include "core/rtp/rtp_header.h"

#include "core/rtp/byte_order.h"

namespace sdkpp::rtp {
namespace {

constexpr uint8_t kPaddingBit = 0x20;
constexpr uint8_t kExtensionBit = 0x10;
constexpr uint8_t kCsrcCountMask = 0x0F;
constexpr uint8_t kMarkerBit = 0x80;
constexpr uint8_t kPayloadTypeMask = 0x7F;

} // namespace

size_t ClearHeaderSize(const RtpHeader& header) noexcept
{
    return kFixedHeaderSize + 4 * static_cast<size_t>(header.csrcCount) +
           (header.hasExtension ? kExtensionPreambleSize : 0);
}

size_t ExtensionBodySize(const RtpHeader& header) noexcept
{
    return header.hasExtension ? 4 * static_cast<size_t>(header.extensionWords) : 0;
}

Result WriteClearHeader(const RtpHeader& header, MutableByteView out, size_t* written) noexcept
{
    if (written != nullptr) {
        *written = 0;
    }
    if (header.csrcCount > kMaxCsrcs || header.payloadType > kPayloadTypeMask) {
        return Result::kInvalidHeader;
    }
    const size_t size = ClearHeaderSize(header);
    if (out.size() < size) {
        return Result::kOutputTooSmall;
    }
    uint8_t* bytes = out.data();
    bytes[0] = static_cast<uint8_t>((kRtpVersion << 6) | (header.paddingSize > 0 ? kPaddingBit : 0) |
                                    (header.hasExtension ? kExtensionBit : 0) | header.csrcCount);
    bytes[1] = static_cast<uint8_t>((header.marker ? kMarkerBit : 0) | header.payloadType);
    StoreBe16(header.sequence, bytes + 2);
    StoreBe32(header.timestamp, bytes + 4);
    StoreBe32(header.ssrc, bytes + 8);
    size_t offset = kFixedHeaderSize;
    for (size_t i = 0; i < header.csrcCount; ++i, offset += 4) {
        StoreBe32(header.csrcs[i], bytes + offset);
    }
    if (header.hasExtension) {
        StoreBe16(header.extensionProfile, bytes + offset);
        StoreBe16(header.extensionWords, bytes + offset + 2);
    }
    if (written != nullptr) {
        *written = size;
    }
    return Result::kOk;
}

Result ParseClearHeader(ByteView packet, RtpHeader* header, size_t* clearSize) noexcept
{
    if (packet.size() < kFixedHeaderSize) {
        return Result::kTruncatedHeader;
    }
    const uint8_t* bytes = packet.data();
    if ((bytes[0] >> 6) != kRtpVersion) {
        return Result::kBadVersion;
    }
    RtpHeader parsed;
    parsed.paddingSize = (bytes[0] & kPaddingBit) != 0 ? 1 : 0;
    parsed.hasExtension = (bytes[0] & kExtensionBit) != 0;
    parsed.csrcCount = static_cast<uint8_t>(bytes[0] & kCsrcCountMask);
    parsed.marker = (bytes[1] & kMarkerBit) != 0;
    parsed.payloadType = static_cast<uint8_t>(bytes[1] & kPayloadTypeMask);
    parsed.sequence = LoadBe16(bytes + 2);
    parsed.timestamp = LoadBe32(bytes + 4);
    parsed.ssrc = LoadBe32(bytes + 8);
    size_t offset = kFixedHeaderSize;
    if (packet.size() - offset < 4 * static_cast<size_t>(parsed.csrcCount)) {
        return Result::kCsrcPastEnd;
    }
    for (size_t i = 0; i < parsed.csrcCount; ++i, offset += 4) {
        parsed.csrcs[i] = LoadBe32(bytes + offset);
    }
    if (parsed.hasExtension) {
        if (packet.size() - offset < kExtensionPreambleSize) {
            return Result::kExtensionPastEnd;
        }
        parsed.extensionProfile = LoadBe16(bytes + offset);
        parsed.extensionWords = LoadBe16(bytes + offset + 2);
        offset += kExtensionPreambleSize;
    }
    *header = parsed;
    *clearSize = offset;
    return Result::kOk;
}

Result SplitBody(RtpHeader* header, ByteView body, RtpPacketView* view) noexcept
{
    const size_t extensionSize = ExtensionBodySize(*header);
    if (body.size() < extensionSize) {
        return Result::kExtensionPastEnd;
    }
    size_t payloadSize = body.size() - extensionSize;
    if (header->paddingSize > 0) {
        // The count byte is the last byte and counts itself (RFC 3550 §5.1); 0 is not a valid count.
        const uint8_t count = payloadSize == 0 ? 0 : body[body.size() - 1];
        if (count == 0 || count > payloadSize) {
            return Result::kBadPadding;
        }
        header->paddingSize = count;
        payloadSize -= count;
    }
    view->header = *header;
    view->extensionOffset = 0;
    view->extensionSize = extensionSize;
    view->payloadOffset = extensionSize;
    view->payloadSize = payloadSize;
    return Result::kOk;
}

Result ParseRtpPacket(ByteView packet, RtpPacketView* view) noexcept
{
    RtpHeader header;
    size_t clearSize = 0;
    Result result = ParseClearHeader(packet, &header, &clearSize);
    if (result != Result::kOk) {
        return result;
    }
    result = SplitBody(&header, packet.subspan(clearSize), view);
    if (result != Result::kOk) {
        return result;
    }
    view->extensionOffset += clearSize;
    view->payloadOffset += clearSize;
    return Result::kOk;
}

} // namespace sdkpp::rtp
