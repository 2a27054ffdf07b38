#include "core/crypto/xchacha20_poly1305.h"

#include <cstring>
#include <new>

#include "core/crypto/hchacha20.h"

namespace sdkpp::crypto {

std::unique_ptr<XChaCha20Poly1305> XChaCha20Poly1305::Create(ByteView key, AeadResult* result) noexcept
{
    const auto report = [result](AeadResult value) {
        if (result != nullptr) {
            *result = value;
        }
    };
    if (key.size() != kXChaCha20Poly1305KeySize) {
        report(AeadResult::kInvalidKeySize);
        return nullptr;
    }
    // The inner cipher starts with the master key only because it needs some 32-byte key; every message
    // replaces it with that message's subkey before use.
    AeadResult created = AeadResult::kBackendError;
    auto inner = CreateAeadCipher(AeadAlgorithm::kChaCha20Poly1305, key, &created);
    if (!inner) {
        report(created == AeadResult::kSuccess ? AeadResult::kBackendError : created);
        return nullptr;
    }
    std::unique_ptr<XChaCha20Poly1305> instance(new (std::nothrow) XChaCha20Poly1305(std::move(inner)));
    if (!instance) {
        report(AeadResult::kBackendError);
        return nullptr;
    }
    std::memcpy(instance->key_, key.data(), kXChaCha20Poly1305KeySize);
    report(AeadResult::kSuccess);
    return instance;
}

XChaCha20Poly1305::XChaCha20Poly1305(std::unique_ptr<IAeadCipher> inner) noexcept
  : inner_(std::move(inner))
{
}

XChaCha20Poly1305::~XChaCha20Poly1305()
{
    SecureWipe(key_);
}

AeadResult XChaCha20Poly1305::Prepare(ByteView nonce, uint8_t (&innerNonce)[12]) noexcept
{
    if (nonce.size() != kXChaCha20Poly1305NonceSize) {
        return AeadResult::kInvalidNonceSize;
    }
    uint8_t input[kHChaCha20InputSize];
    std::memcpy(input, nonce.data(), sizeof(input));
    uint8_t subkey[kHChaCha20OutputSize];
    HChaCha20(key_, input, subkey);
    const AeadResult keyed = inner_->SetKey(subkey);
    SecureWipe(subkey);
    std::memset(innerNonce, 0, 4);
    std::memcpy(innerNonce + 4, nonce.data() + kHChaCha20InputSize, 8);
    return keyed;
}

AeadResult XChaCha20Poly1305::Seal(ByteView nonce,
                                   ByteView aad,
                                   ByteView plaintext,
                                   MutableByteView sealed,
                                   size_t* bytesWritten) noexcept
{
    if (bytesWritten != nullptr) {
        *bytesWritten = 0;
    }
    uint8_t innerNonce[12];
    const AeadResult prepared = Prepare(nonce, innerNonce);
    if (prepared != AeadResult::kSuccess) {
        return prepared;
    }
    return inner_->Seal(innerNonce, aad, plaintext, sealed, bytesWritten);
}

AeadResult XChaCha20Poly1305::Open(ByteView nonce,
                                   ByteView aad,
                                   ByteView sealed,
                                   MutableByteView plaintext,
                                   size_t* bytesWritten) noexcept
{
    if (bytesWritten != nullptr) {
        *bytesWritten = 0;
    }
    uint8_t innerNonce[12];
    const AeadResult prepared = Prepare(nonce, innerNonce);
    if (prepared != AeadResult::kSuccess) {
        return prepared;
    }
    return inner_->Open(innerNonce, aad, sealed, plaintext, bytesWritten);
}

} // namespace sdkpp::crypto
