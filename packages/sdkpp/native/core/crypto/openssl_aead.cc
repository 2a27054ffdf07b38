// The OpenSSL 3 backend. Its headers come from Node's own include dir and its symbols from the running
// node binary (see binding.gyp), so the addon carries no crypto library of its own.

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstring>
#include <new>

#include "core/crypto/aead_backend.h"

namespace sdkpp::crypto::backend {
namespace {

const EVP_CIPHER* EvpCipher(AeadAlgorithm algorithm) noexcept
{
    switch (algorithm) {
    case AeadAlgorithm::kAes256Gcm:
        return EVP_aes_256_gcm();
    case AeadAlgorithm::kChaCha20Poly1305:
        return EVP_chacha20_poly1305();
    }
    return nullptr;
}

// Exactly in place (same start) is safe for these stream AEADs; any other overlap would read input bytes
// that the output has already overwritten.
bool OverlapsPartially(ByteView input, const uint8_t* output, size_t outputSize) noexcept
{
    if (input.empty() || outputSize == 0) {
        return false;
    }
    const auto in = reinterpret_cast<uintptr_t>(input.data());
    const auto out = reinterpret_cast<uintptr_t>(output);
    return in != out && in < out + outputSize && out < in + input.size();
}

// Sizes reaching EVP have been checked against kAeadMaxInputSize (== INT_MAX).
int EvpLength(size_t size) noexcept
{
    return static_cast<int>(size);
}

class OpenSslAeadCipher final : public IAeadCipher {
public:
    OpenSslAeadCipher(AeadAlgorithm algorithm, const AeadParameters& parameters, EVP_CIPHER_CTX* ctx) noexcept
      : algorithm_(algorithm), parameters_(parameters), ctx_(ctx)
    {
    }
    ~OpenSslAeadCipher() override { EVP_CIPHER_CTX_free(ctx_); } // also wipes the key schedule

    OpenSslAeadCipher(const OpenSslAeadCipher&) = delete;
    OpenSslAeadCipher& operator=(const OpenSslAeadCipher&) = delete;

    AeadAlgorithm Algorithm() const noexcept override { return algorithm_; }

    AeadResult SetKey(ByteView key) noexcept override
    {
        if (key.size() != parameters_.keySize) {
            return AeadResult::kInvalidKeySize;
        }
        // -1 keeps the direction; the nonce is set per message by Start().
        if (EVP_CipherInit_ex(ctx_, nullptr, nullptr, key.data(), nullptr, -1) != 1) {
            return BackendError();
        }
        return AeadResult::kSuccess;
    }

    AeadResult Seal(ByteView nonce,
                    ByteView aad,
                    ByteView plaintext,
                    MutableByteView sealed,
                    size_t* bytesWritten) noexcept override
    {
        SetWritten(bytesWritten, 0);
        if (nonce.size() != parameters_.nonceSize) {
            return AeadResult::kInvalidNonceSize;
        }
        if (aad.size() > kAeadMaxInputSize || plaintext.size() > kAeadMaxInputSize) {
            return AeadResult::kInputTooLarge;
        }
        const size_t ciphertextSize = plaintext.size();
        const size_t sealedSize = ciphertextSize + parameters_.tagSize;
        if (sealed.size() < sealedSize) {
            return AeadResult::kOutputTooSmall;
        }
        if (OverlapsPartially(plaintext, sealed.data(), sealedSize)) {
            return AeadResult::kOverlappingBuffers;
        }
        if (!Start(nonce, aad, 1) || !Transform(plaintext, sealed.data()) || !Finish()) {
            return BackendError();
        }
        if (EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_GET_TAG, EvpLength(parameters_.tagSize),
                                sealed.data() + ciphertextSize) != 1) {
            return BackendError();
        }
        SetWritten(bytesWritten, sealedSize);
        return AeadResult::kSuccess;
    }

    AeadResult Open(ByteView nonce,
                    ByteView aad,
                    ByteView sealed,
                    MutableByteView plaintext,
                    size_t* bytesWritten) noexcept override
    {
        SetWritten(bytesWritten, 0);
        if (nonce.size() != parameters_.nonceSize) {
            return AeadResult::kInvalidNonceSize;
        }
        if (sealed.size() < parameters_.tagSize) {
            return AeadResult::kCiphertextTooShort;
        }
        const ByteView ciphertext = sealed.first(sealed.size() - parameters_.tagSize);
        if (aad.size() > kAeadMaxInputSize || ciphertext.size() > kAeadMaxInputSize) {
            return AeadResult::kInputTooLarge;
        }
        if (plaintext.size() < ciphertext.size()) {
            return AeadResult::kOutputTooSmall;
        }
        if (OverlapsPartially(ciphertext, plaintext.data(), ciphertext.size())) {
            return AeadResult::kOverlappingBuffers;
        }
        // OpenSSL's ctrl takes a non-const pointer; a copy keeps the caller's tag untouched and lets an
        // in-place open overwrite the ciphertext freely.
        uint8_t tag[kAeadMaxTagSize];
        std::memcpy(tag, sealed.data() + ciphertext.size(), parameters_.tagSize);
        if (!Start(nonce, aad, 0) ||
            EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_SET_TAG, EvpLength(parameters_.tagSize), tag) != 1 ||
            !Transform(ciphertext, plaintext.data())) {
            Wipe(plaintext.first(ciphertext.size()));
            return BackendError();
        }
        if (!Finish()) {
            Wipe(plaintext.first(ciphertext.size()));
            ERR_clear_error();
            return AeadResult::kAuthenticationFailed;
        }
        SetWritten(bytesWritten, ciphertext.size());
        return AeadResult::kSuccess;
    }

private:
    static void SetWritten(size_t* bytesWritten, size_t value) noexcept
    {
        if (bytesWritten != nullptr) {
            *bytesWritten = value;
        }
    }

    static void Wipe(MutableByteView bytes) noexcept
    {
        if (!bytes.empty()) {
            OPENSSL_cleanse(bytes.data(), bytes.size());
        }
    }

    // Node's own crypto reads the same thread-local error queue; leave nothing behind in it.
    static AeadResult BackendError() noexcept
    {
        ERR_clear_error();
        return AeadResult::kBackendError;
    }

    // Re-arms the context for one message: the key schedule stays, the nonce and direction change.
    bool Start(ByteView nonce, ByteView aad, int encrypt) noexcept
    {
        if (EVP_CipherInit_ex(ctx_, nullptr, nullptr, nullptr, nonce.data(), encrypt) != 1) {
            return false;
        }
        int ignored = 0;
        return aad.empty() ||
               EVP_CipherUpdate(ctx_, nullptr, &ignored, aad.data(), EvpLength(aad.size())) == 1;
    }

    // These AEADs are stream modes: every input byte comes out of Update at once.
    bool Transform(ByteView input, uint8_t* output) noexcept
    {
        if (input.empty()) {
            return true;
        }
        int written = 0;
        return EVP_CipherUpdate(ctx_, output, &written, input.data(), EvpLength(input.size())) == 1 &&
               static_cast<size_t>(written) == input.size();
    }

    // Computes (sealing) or checks (opening) the tag. Final writes no data for a stream mode, so a scratch
    // buffer stands in for the output, which may be empty and null.
    bool Finish() noexcept
    {
        uint8_t scratch[kAeadMaxTagSize];
        int written = 0;
        return EVP_CipherFinal_ex(ctx_, scratch, &written) == 1 && written == 0;
    }

    const AeadAlgorithm algorithm_;
    const AeadParameters& parameters_;
    EVP_CIPHER_CTX* const ctx_;
};

} // namespace

bool SupportsAead(AeadAlgorithm algorithm) noexcept
{
    return EvpCipher(algorithm) != nullptr;
}

std::unique_ptr<IAeadCipher> CreateAeadCipher(AeadAlgorithm algorithm,
                                              const AeadParameters& parameters,
                                              ByteView key,
                                              AeadResult* result) noexcept
{
    const auto fail = [result](AeadResult reason) -> std::unique_ptr<IAeadCipher> {
        ERR_clear_error();
        if (result != nullptr) {
            *result = reason;
        }
        return nullptr;
    };
    const EVP_CIPHER* cipher = EvpCipher(algorithm);
    if (cipher == nullptr) {
        return fail(AeadResult::kUnsupportedAlgorithm);
    }
    if (static_cast<size_t>(EVP_CIPHER_get_key_length(cipher)) != parameters.keySize) {
        return fail(AeadResult::kBackendError);
    }
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    if (ctx == nullptr) {
        return fail(AeadResult::kBackendError);
    }
    // The nonce length is set explicitly because it is per algorithm (24 bytes for XChaCha20 later), and
    // the key is set once here so that every later call only re-arms the nonce.
    if (EVP_CipherInit_ex(ctx, cipher, nullptr, nullptr, nullptr, 1) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, EvpLength(parameters.nonceSize), nullptr) != 1 ||
        EVP_CipherInit_ex(ctx, nullptr, nullptr, key.data(), nullptr, 1) != 1) {
        EVP_CIPHER_CTX_free(ctx);
        return fail(AeadResult::kBackendError);
    }
    std::unique_ptr<IAeadCipher> instance(new (std::nothrow) OpenSslAeadCipher(algorithm, parameters, ctx));
    if (!instance) {
        EVP_CIPHER_CTX_free(ctx);
        return fail(AeadResult::kBackendError);
    }
    if (result != nullptr) {
        *result = AeadResult::kSuccess;
    }
    return instance;
}

} // namespace sdkpp::crypto::backend
