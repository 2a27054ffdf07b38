#include "core/rtp/extension.h"

#include <cstring>

#include "core/rtp/rtp_header.h"

namespace sdkpp::rtp {
namespace {

constexpr uint8_t kOneByteStopId = 15;
constexpr size_t kOneByteMaxData = 16;
constexpr size_t kTwoByteMaxData = 255;
constexpr size_t kMaxBodySize = 4 * 0xFFFF;

bool IsTwoByte(uint16_t profile) noexcept
{
    return (profile & kTwoByteExtensionProfileMask) == kTwoByteExtensionProfile;
}

} // namespace

ExtensionReader::ExtensionReader(uint16_t profile, ByteView body) noexcept
  : oneByte_(profile == kOneByteExtensionProfile),
    known_(profile == kOneByteExtensionProfile || IsTwoByte(profile)),
    body_(body)
{
}

Result ExtensionReader::Next(ExtensionElement* element, bool* done) noexcept
{
    *done = true;
    if (!known_) {
        return Result::kOk;
    }
    // Padding bytes may sit between and after elements.
    while (offset_ < body_.size() && body_[offset_] == 0) {
        ++offset_;
    }
    if (offset_ >= body_.size()) {
        return Result::kOk;
    }
    const size_t remaining = body_.size() - offset_;
    uint8_t id = 0;
    size_t headerSize = 0;
    size_t dataSize = 0;
    if (oneByte_) {
        id = static_cast<uint8_t>(body_[offset_] >> 4);
        if (id == kOneByteStopId) {
            known_ = false;
            return Result::kOk;
        }
        headerSize = 1;
        dataSize = static_cast<size_t>(body_[offset_] & 0x0F) + 1;
    } else {
        if (remaining < 2) {
            known_ = false;
            return Result::kExtensionPastEnd;
        }
        id = body_[offset_];
        headerSize = 2;
        dataSize = body_[offset_ + 1];
    }
    if (remaining - headerSize < dataSize) {
        known_ = false;
        return Result::kExtensionPastEnd;
    }
    element->id = id;
    element->data = ByteView{body_.data() + offset_ + headerSize, dataSize};
    offset_ += headerSize + dataSize;
    *done = false;
    return Result::kOk;
}

Result WriteExtensionElements(uint16_t profile,
                              Span<const ExtensionElement> elements,
                              MutableByteView out,
                              size_t* written) noexcept
{
    *written = 0;
    const bool oneByte = profile == kOneByteExtensionProfile;
    if (!oneByte && !IsTwoByte(profile)) {
        return Result::kInvalidHeader;
    }
    size_t size = 0;
    for (const ExtensionElement& element : elements) {
        const size_t length = element.data.size();
        const bool valid = oneByte ? element.id >= 1 && element.id <= 14 && length >= 1 &&
                                       length <= kOneByteMaxData
                                   : element.id >= 1 && length <= kTwoByteMaxData;
        if (!valid) {
            return Result::kInvalidHeader;
        }
        size += (oneByte ? 1 : 2) + length;
    }
    const size_t padded = (size + 3) & ~static_cast<size_t>(3);
    if (padded > kMaxBodySize) {
        return Result::kInvalidHeader;
    }
    if (out.size() < padded) {
        return Result::kOutputTooSmall;
    }
    size_t offset = 0;
    for (const ExtensionElement& element : elements) {
        const size_t length = element.data.size();
        if (oneByte) {
            // One-byte form: the id in the high nibble, length - 1 (1..16, checked above) in the low one.
            out[offset++] = static_cast<uint8_t>((static_cast<size_t>(element.id) << 4) | (length - 1));
        } else {
            out[offset++] = element.id;
            out[offset++] = static_cast<uint8_t>(length);
        }
        if (length > 0) {
            std::memmove(out.data() + offset, element.data.data(), length);
        }
        offset += length;
    }
    if (padded > offset) {
        std::memset(out.data() + offset, 0, padded - offset);
    }
    *written = padded;
    return Result::kOk;
}

} // namespace sdkpp::rtp
