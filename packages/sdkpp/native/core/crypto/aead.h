#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>

#include "core/span.h"

namespace sdkpp::crypto {

// Values are stable: they may be stored or sent across the addon boundary as numbers.
// The transport modes of the next issue add kAes128Gcm (16-byte key) and kXChaCha20Poly1305 (24-byte
// nonce); key and nonce sizes are therefore per algorithm (AeadParameters), never assumed to be 32 and 12.
enum class AeadAlgorithm : uint8_t {
    kAes256Gcm = 0,
    kChaCha20Poly1305 = 1,
};

inline constexpr AeadAlgorithm kAeadAlgorithms[] = {
  AeadAlgorithm::kAes256Gcm,
  AeadAlgorithm::kChaCha20Poly1305,
};
inline constexpr size_t kAeadAlgorithmCount = sizeof(kAeadAlgorithms) / sizeof(kAeadAlgorithms[0]);

enum class AeadResult : uint8_t {
    kSuccess = 0,
    kUnsupportedAlgorithm,
    kInvalidKeySize,
    kInvalidNonceSize,
    // The sealed input is shorter than the authentication tag it must end with.
    kCiphertextTooShort,
    // Larger than kAeadMaxInputSize.
    kInputTooLarge,
    kOutputTooSmall,
    // Input and output share memory without starting at the same address; in place is allowed.
    kOverlappingBuffers,
    kAuthenticationFailed,
    kBackendError,
};

struct AeadParameters {
    std::string_view name; // the node:crypto name, e.g. "aes-256-gcm"
    size_t keySize;
    size_t nonceSize;
    size_t tagSize;
};

inline constexpr size_t kAeadMaxTagSize = 16;

// Backends take int lengths (OpenSSL's EVP does), so no plaintext, ciphertext or AAD may be larger.
inline constexpr size_t kAeadMaxInputSize = static_cast<size_t>(std::numeric_limits<int>::max());

// nullptr for a value that is not a known algorithm (for example a number cast from untrusted input).
const AeadParameters* GetAeadParameters(AeadAlgorithm algorithm) noexcept;

// Accepts the node:crypto names ("aes-256-gcm", "chacha20-poly1305"); false for anything else.
bool ParseAeadAlgorithm(std::string_view name, AeadAlgorithm* algorithm) noexcept;

// Whether the crypto backend this addon was built with implements the algorithm at run time.
bool IsAeadAlgorithmSupported(AeadAlgorithm algorithm) noexcept;

// The buffer sizes a caller must provide, computed before any allocation so that oversized inputs are
// refused without first allocating for them.
AeadResult SealedSize(AeadAlgorithm algorithm, size_t plaintextSize, size_t* sealedSize) noexcept;
AeadResult OpenedSize(AeadAlgorithm algorithm, size_t sealedSize, size_t* plaintextSize) noexcept;

// One key, one algorithm. Sealed data is ciphertext || tag. Buffers belong to the caller; a call never
// allocates. The output may be the input exactly (in place) but must not overlap it otherwise; the nonce
// and AAD may alias anything, as they are consumed before the first output byte is written. An instance
// is not thread-safe: use one per thread.
class IAeadCipher {
public:
    virtual ~IAeadCipher() = default;

    virtual AeadAlgorithm Algorithm() const noexcept = 0;

    // Replaces the key without allocating, for constructions that derive a key per message (XChaCha20's
    // HChaCha20 subkey). kInvalidKeySize leaves the previous key in place.
    virtual AeadResult SetKey(ByteView key) noexcept = 0;

    // Writes plaintext.size() + tag bytes to `sealed`. `bytesWritten` may be null.
    virtual AeadResult Seal(ByteView nonce,
                            ByteView aad,
                            ByteView plaintext,
                            MutableByteView sealed,
                            size_t* bytesWritten) noexcept = 0;

    // Writes sealed.size() - tag bytes to `plaintext`. On kAuthenticationFailed that region of `plaintext`
    // is zeroed, so unauthenticated bytes never reach the caller. `bytesWritten` may be null.
    virtual AeadResult Open(ByteView nonce,
                            ByteView aad,
                            ByteView sealed,
                            MutableByteView plaintext,
                            size_t* bytesWritten) noexcept = 0;
};

// Checks the algorithm and the key size, then builds the backend's cipher with the key schedule done once.
// Returns nullptr on failure and, when `result` is not null, stores why.
std::unique_ptr<IAeadCipher> CreateAeadCipher(AeadAlgorithm algorithm,
                                              ByteView key,
                                              AeadResult* result = nullptr) noexcept;

} // namespace sdkpp::crypto
