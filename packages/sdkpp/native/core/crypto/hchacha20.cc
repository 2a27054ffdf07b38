#include "core/crypto/hchacha20.h"

namespace sdkpp::crypto {
namespace {

uint32_t Rotl(uint32_t value, int bits) noexcept
{
    return (value << bits) | (value >> (32 - bits));
}

uint32_t LoadLe32(const uint8_t* bytes) noexcept
{
    return static_cast<uint32_t>(bytes[0]) | (static_cast<uint32_t>(bytes[1]) << 8) |
           (static_cast<uint32_t>(bytes[2]) << 16) | (static_cast<uint32_t>(bytes[3]) << 24);
}

void StoreLe32(uint32_t value, uint8_t* bytes) noexcept
{
    bytes[0] = static_cast<uint8_t>(value);
    bytes[1] = static_cast<uint8_t>(value >> 8);
    bytes[2] = static_cast<uint8_t>(value >> 16);
    bytes[3] = static_cast<uint8_t>(value >> 24);
}

void QuarterRound(uint32_t (&x)[16], int a, int b, int c, int d) noexcept
{
    x[a] += x[b];
    x[d] = Rotl(x[d] ^ x[a], 16);
    x[c] += x[d];
    x[b] = Rotl(x[b] ^ x[c], 12);
    x[a] += x[b];
    x[d] = Rotl(x[d] ^ x[a], 8);
    x[c] += x[d];
    x[b] = Rotl(x[b] ^ x[c], 7);
}

} // namespace

void HChaCha20(const uint8_t (&key)[kHChaCha20KeySize],
               const uint8_t (&input)[kHChaCha20InputSize],
               uint8_t (&output)[kHChaCha20OutputSize]) noexcept
{
    // "expand 32-byte k", then the key, then the 16 input bytes, all little-endian words.
    uint32_t x[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (size_t i = 0; i < 8; ++i) {
        x[4 + i] = LoadLe32(key + 4 * i);
    }
    for (size_t i = 0; i < 4; ++i) {
        x[12 + i] = LoadLe32(input + 4 * i);
    }
    for (int round = 0; round < 10; ++round) {
        QuarterRound(x, 0, 4, 8, 12);
        QuarterRound(x, 1, 5, 9, 13);
        QuarterRound(x, 2, 6, 10, 14);
        QuarterRound(x, 3, 7, 11, 15);
        QuarterRound(x, 0, 5, 10, 15);
        QuarterRound(x, 1, 6, 11, 12);
        QuarterRound(x, 2, 7, 8, 13);
        QuarterRound(x, 3, 4, 9, 14);
    }
    for (size_t i = 0; i < 4; ++i) {
        StoreLe32(x[i], output + 4 * i);
        StoreLe32(x[12 + i], output + 16 + 4 * i);
    }
    SecureWipe({reinterpret_cast<uint8_t*>(x), sizeof(x)});
}

void SecureWipe(MutableByteView bytes) noexcept
{
    volatile uint8_t* cursor = bytes.data();
    for (size_t i = 0; i < bytes.size(); ++i) {
        cursor[i] = 0;
    }
}

} // namespace sdkpp::crypto
