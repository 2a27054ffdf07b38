#include "core/rtp/ip_discovery.h"

#include <cstring>

#include "core/rtp/byte_order.h"

namespace sdkpp::rtp {
namespace {

constexpr size_t kAddressOffset = 8;
constexpr size_t kPortOffset = kAddressOffset + kIpDiscoveryAddressField;

// The characters of dotted IPv4 and textual IPv6; anything else cannot be an address the peer can use.
bool IsAddressChar(uint8_t c) noexcept
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.' || c == ':';
}

bool IsKnownType(IpDiscoveryType type) noexcept
{
    return type == IpDiscoveryType::kRequest || type == IpDiscoveryType::kResponse;
}

bool AddressOk(IpDiscoveryType type, const uint8_t* text, size_t size) noexcept
{
    if (size > kIpDiscoveryMaxAddress || (type == IpDiscoveryType::kResponse && size == 0)) {
        return false;
    }
    for (size_t i = 0; i < size; ++i) {
        if (!IsAddressChar(text[i])) {
            return false;
        }
    }
    return true;
}

} // namespace

Result WriteIpDiscovery(const IpDiscoveryPacket& packet, MutableByteView out, size_t* written) noexcept
{
    if (written != nullptr) {
        *written = 0;
    }
    if (!IsKnownType(packet.type)) {
        return Result::kInvalidHeader;
    }
    const auto* text = reinterpret_cast<const uint8_t*>(packet.address);
    if (!AddressOk(packet.type, text, packet.addressSize)) {
        return Result::kBadDiscoveryAddress;
    }
    if (out.size() < kIpDiscoverySize) {
        return Result::kOutputTooSmall;
    }
    uint8_t* bytes = out.data();
    std::memset(bytes, 0, kIpDiscoverySize);
    StoreBe16(static_cast<uint16_t>(packet.type), bytes);
    StoreBe16(kIpDiscoveryLengthField, bytes + 2);
    StoreBe32(packet.ssrc, bytes + 4);
    if (packet.addressSize > 0) {
        std::memcpy(bytes + kAddressOffset, text, packet.addressSize);
    }
    StoreBe16(packet.port, bytes + kPortOffset);
    if (written != nullptr) {
        *written = kIpDiscoverySize;
    }
    return Result::kOk;
}

Result ParseIpDiscovery(ByteView bytes, IpDiscoveryPacket* packet) noexcept
{
    if (bytes.size() != kIpDiscoverySize || LoadBe16(bytes.data() + 2) != kIpDiscoveryLengthField) {
        return Result::kBadDiscoveryLength;
    }
    const auto type = static_cast<IpDiscoveryType>(LoadBe16(bytes.data()));
    if (!IsKnownType(type)) {
        return Result::kBadDiscoveryType;
    }
    const uint8_t* field = bytes.data() + kAddressOffset;
    const void* nul = std::memchr(field, 0, kIpDiscoveryAddressField);
    if (nul == nullptr) {
        return Result::kBadDiscoveryAddress;
    }
    const auto size = static_cast<size_t>(static_cast<const uint8_t*>(nul) - field);
    if (!AddressOk(type, field, size)) {
        return Result::kBadDiscoveryAddress;
    }
    IpDiscoveryPacket parsed;
    parsed.type = type;
    parsed.ssrc = LoadBe32(bytes.data() + 4);
    std::memcpy(parsed.address, field, size);
    parsed.addressSize = size;
    parsed.port = LoadBe16(bytes.data() + kPortOffset);
    *packet = parsed;
    return Result::kOk;
}

} // namespace sdkpp::rtp
