#pragma once

#include <cstdint>

// Network byte order readers and writers. Callers check lengths first; these only move bytes.
namespace sdkpp::rtp {

inline uint16_t LoadBe16(const uint8_t* bytes) noexcept
{
    return static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
}

inline uint32_t LoadBe32(const uint8_t* bytes) noexcept
{
    return (static_cast<uint32_t>(bytes[0]) << 24) | (static_cast<uint32_t>(bytes[1]) << 16) |
           (static_cast<uint32_t>(bytes[2]) << 8) | static_cast<uint32_t>(bytes[3]);
}

inline void StoreBe16(uint16_t value, uint8_t* bytes) noexcept
{
    bytes[0] = static_cast<uint8_t>(value >> 8);
    bytes[1] = static_cast<uint8_t>(value);
}

inline void StoreBe32(uint32_t value, uint8_t* bytes) noexcept
{
    bytes[0] = static_cast<uint8_t>(value >> 24);
    bytes[1] = static_cast<uint8_t>(value >> 16);
    bytes[2] = static_cast<uint8_t>(value >> 8);
    bytes[3] = static_cast<uint8_t>(value);
}

} // namespace sdkpp::rtp
