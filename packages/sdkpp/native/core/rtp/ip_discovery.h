#pragma once

#include <cstddef>
#include <cstdint>

#include "core/rtp/result.h"
#include "core/span.h"

namespace sdkpp::rtp {

// The UDP IP discovery packet (wire-protocols.md §2.4): 74 bytes each way, big-endian.
//   u16 type (1 request, 2 response) | u16 length = 70 | u32 SSRC | 64-byte NUL-terminated ASCII address
//   | u16 port
inline constexpr size_t kIpDiscoverySize = 74;
inline constexpr uint16_t kIpDiscoveryLengthField = 70;
inline constexpr size_t kIpDiscoveryAddressField = 64;
// The address text must leave room for its NUL terminator.
inline constexpr size_t kIpDiscoveryMaxAddress = kIpDiscoveryAddressField - 1;

enum class IpDiscoveryType : uint16_t {
    kRequest = 1,
    kResponse = 2,
};

struct IpDiscoveryPacket {
    IpDiscoveryType type = IpDiscoveryType::kRequest;
    uint32_t ssrc = 0;
    // The address as text ("203.0.113.7"), not NUL-terminated here; empty in a request.
    char address[kIpDiscoveryMaxAddress] = {};
    size_t addressSize = 0;
    uint16_t port = 0; // 0 in a request
};

// Writes exactly kIpDiscoverySize bytes. kInvalidHeader for an unknown type; kBadDiscoveryAddress for an
// address that is too long or holds a character outside [0-9A-Fa-f.:], or an empty address in a
// response; kOutputTooSmall when `out` is short.
Result WriteIpDiscovery(const IpDiscoveryPacket& packet, MutableByteView out, size_t* written) noexcept;

// Reads a request or a response. kBadDiscoveryLength unless the datagram is 74 bytes with a length field
// of 70; kBadDiscoveryType for a type other than 1 or 2; kBadDiscoveryAddress as for writing, or when no
// NUL ends the address within its 64 bytes. Bytes after the NUL are ignored, as the reference does.
Result ParseIpDiscovery(ByteView bytes, IpDiscoveryPacket* packet) noexcept;

} // namespace sdkpp::rtp
