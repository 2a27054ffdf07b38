#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::crypto {

inline constexpr size_t kHChaCha20KeySize = 32;
inline constexpr size_t kHChaCha20InputSize = 16;
inline constexpr size_t kHChaCha20OutputSize = 32;

// HChaCha20 (draft-irtf-cfrg-xchacha §2.2): the ChaCha20 block function without the final addition,
// keeping words 0-3 and 12-15. It turns a key and the first 16 bytes of an XChaCha20 nonce into the
// subkey of that message. Pure C++ because no crypto backend exports it (OpenSSL has no XChaCha20);
// sizes are fixed by the types, so it cannot fail.
void HChaCha20(const uint8_t (&key)[kHChaCha20KeySize],
               const uint8_t (&input)[kHChaCha20InputSize],
               uint8_t (&output)[kHChaCha20OutputSize]) noexcept;

// Zeroes memory in a way the optimiser may not remove, for key material on the stack.
void SecureWipe(MutableByteView bytes) noexcept;

} // namespace sdkpp::crypto
