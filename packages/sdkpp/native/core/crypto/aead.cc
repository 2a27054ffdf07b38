#include "core/crypto/aead.h"

#include "core/crypto/aead_backend.h"

namespace sdkpp::crypto {
namespace {

constexpr AeadParameters kAes256Gcm{"aes-256-gcm", 32, 12, 16};
constexpr AeadParameters kChaCha20Poly1305{"chacha20-poly1305", 32, 12, 16};

void Report(AeadResult* out, AeadResult result) noexcept
{
    if (out != nullptr) {
        *out = result;
    }
}

} // namespace

const AeadParameters* GetAeadParameters(AeadAlgorithm algorithm) noexcept
{
    switch (algorithm) {
    case AeadAlgorithm::kAes256Gcm:
        return &kAes256Gcm;
    case AeadAlgorithm::kChaCha20Poly1305:
        return &kChaCha20Poly1305;
    }
    return nullptr;
}

bool ParseAeadAlgorithm(std::string_view name, AeadAlgorithm* algorithm) noexcept
{
    for (const AeadAlgorithm candidate : kAeadAlgorithms) {
        if (GetAeadParameters(candidate)->name == name) {
            *algorithm = candidate;
            return true;
        }
    }
    return false;
}

bool IsAeadAlgorithmSupported(AeadAlgorithm algorithm) noexcept
{
    return GetAeadParameters(algorithm) != nullptr && backend::SupportsAead(algorithm);
}

AeadResult SealedSize(AeadAlgorithm algorithm, size_t plaintextSize, size_t* sealedSize) noexcept
{
    const AeadParameters* parameters = GetAeadParameters(algorithm);
    if (parameters == nullptr) {
        return AeadResult::kUnsupportedAlgorithm;
    }
    if (plaintextSize > kAeadMaxInputSize) {
        return AeadResult::kInputTooLarge;
    }
    *sealedSize = plaintextSize + parameters->tagSize;
    return AeadResult::kSuccess;
}

AeadResult OpenedSize(AeadAlgorithm algorithm, size_t sealedSize, size_t* plaintextSize) noexcept
{
    const AeadParameters* parameters = GetAeadParameters(algorithm);
    if (parameters == nullptr) {
        return AeadResult::kUnsupportedAlgorithm;
    }
    if (sealedSize < parameters->tagSize) {
        return AeadResult::kCiphertextTooShort;
    }
    if (sealedSize - parameters->tagSize > kAeadMaxInputSize) {
        return AeadResult::kInputTooLarge;
    }
    *plaintextSize = sealedSize - parameters->tagSize;
    return AeadResult::kSuccess;
}

std::unique_ptr<IAeadCipher> CreateAeadCipher(AeadAlgorithm algorithm,
                                              ByteView key,
                                              AeadResult* result) noexcept
{
    const AeadParameters* parameters = GetAeadParameters(algorithm);
    if (parameters == nullptr || !backend::SupportsAead(algorithm)) {
        Report(result, AeadResult::kUnsupportedAlgorithm);
        return nullptr;
    }
    if (key.size() != parameters->keySize) {
        Report(result, AeadResult::kInvalidKeySize);
        return nullptr;
    }
    return backend::CreateAeadCipher(algorithm, *parameters, key, result);
}

} // namespace sdkpp::crypto
