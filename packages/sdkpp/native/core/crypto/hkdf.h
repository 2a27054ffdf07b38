#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::crypto {

inline constexpr size_t kSha256Size = 32;
// RFC 5869 §2.3: at most 255 blocks of output.
inline constexpr size_t kHkdfSha256MaxOutput = 255 * kSha256Size;

// HKDF-SHA256 (RFC 5869), split in its two steps because MLS (RFC 9420) and DAVE's hash ratchet use
// Expand alone, on pseudorandom keys that Extract never produced (a 16-byte ratchet base included).
// Node's crypto.hkdfSync always extracts first, which is why the JS engine builds this from HMAC too.
// Both return false only for an output size the RFC forbids (0 or more than 255 blocks) or a backend
// failure, and then wipe `output`. They never allocate.
bool HkdfSha256Extract(ByteView salt, ByteView inputKeyMaterial, uint8_t (&prk)[kSha256Size]) noexcept;
bool HkdfSha256Expand(ByteView prk, ByteView info, MutableByteView output) noexcept;

} // namespace sdkpp::crypto
