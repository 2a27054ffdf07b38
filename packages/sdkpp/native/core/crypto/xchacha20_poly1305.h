#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/crypto/aead.h"
#include "core/span.h"

namespace sdkpp::crypto {

inline constexpr size_t kXChaCha20Poly1305KeySize = 32;
inline constexpr size_t kXChaCha20Poly1305NonceSize = 24;
inline constexpr size_t kXChaCha20Poly1305TagSize = 16;

// XChaCha20-Poly1305 (IETF construction, libsodium's crypto_aead_xchacha20poly1305_ietf_*): per message,
// subkey = HChaCha20(key, nonce[0:16]) and ChaCha20-Poly1305 runs with that subkey and the 12-byte nonce
// 00000000 || nonce[16:24]. Built on the backend's ChaCha20-Poly1305, whose key is swapped in place, so a
// message costs no allocation. Same buffer rules as IAeadCipher. Not thread-safe: one per thread.
class XChaCha20Poly1305 {
public:
    // nullptr when the backend lacks ChaCha20-Poly1305 (kUnsupportedAlgorithm) or the key is not 32 bytes.
    static std::unique_ptr<XChaCha20Poly1305> Create(ByteView key, AeadResult* result = nullptr) noexcept;

    ~XChaCha20Poly1305();
    XChaCha20Poly1305(const XChaCha20Poly1305&) = delete;
    XChaCha20Poly1305& operator=(const XChaCha20Poly1305&) = delete;

    AeadResult Seal(ByteView nonce,
                    ByteView aad,
                    ByteView plaintext,
                    MutableByteView sealed,
                    size_t* bytesWritten) noexcept;
    AeadResult Open(ByteView nonce,
                    ByteView aad,
                    ByteView sealed,
                    MutableByteView plaintext,
                    size_t* bytesWritten) noexcept;

private:
    explicit XChaCha20Poly1305(std::unique_ptr<IAeadCipher> inner) noexcept;
    // Derives the subkey into the inner cipher and the inner nonce into `innerNonce`.
    AeadResult Prepare(ByteView nonce, uint8_t (&innerNonce)[12]) noexcept;

    std::unique_ptr<IAeadCipher> inner_;
    uint8_t key_[kXChaCha20Poly1305KeySize] = {};
};

} // namespace sdkpp::crypto
