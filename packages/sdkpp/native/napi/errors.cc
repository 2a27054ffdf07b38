#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

std::string Bytes(size_t count)
{
    return std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

} // namespace

void ThrowError(Napi::Env env, ErrorKind kind, const char* code, const std::string& message)
{
    Napi::Error error = kind == ErrorKind::kTypeError    ? Napi::TypeError::New(env, message)
                        : kind == ErrorKind::kRangeError ? Napi::RangeError::New(env, message)
                                                         : Napi::Error::New(env, message);
    error.Set("code", Napi::String::New(env, code));
    throw error;
}

const char* AeadErrorCode(crypto::AeadResult result) noexcept
{
    using crypto::AeadResult;
    switch (result) {
    case AeadResult::kSuccess:
        break;
    case AeadResult::kUnsupportedAlgorithm:
        return "ERR_AEAD_UNSUPPORTED_ALGORITHM";
    case AeadResult::kInvalidKeySize:
        return "ERR_AEAD_INVALID_KEY_SIZE";
    case AeadResult::kInvalidNonceSize:
        return "ERR_AEAD_INVALID_NONCE_SIZE";
    case AeadResult::kCiphertextTooShort:
        return "ERR_AEAD_CIPHERTEXT_TOO_SHORT";
    case AeadResult::kInputTooLarge:
        return "ERR_AEAD_INPUT_TOO_LARGE";
    case AeadResult::kOutputTooSmall:
        return "ERR_AEAD_OUTPUT_TOO_SMALL";
    case AeadResult::kOverlappingBuffers:
        return "ERR_AEAD_OVERLAPPING_BUFFERS";
    case AeadResult::kAuthenticationFailed:
        return "ERR_AEAD_AUTHENTICATION_FAILED";
    case AeadResult::kBackendError:
        return "ERR_AEAD_BACKEND";
    }
    return "ERR_AEAD_BACKEND";
}

std::string SupportedAeadNames()
{
    std::string names;
    for (const crypto::AeadAlgorithm algorithm : crypto::kAeadAlgorithms) {
        if (crypto::IsAeadAlgorithmSupported(algorithm)) {
            names +=
              (names.empty() ? "'" : ", '") + std::string(crypto::GetAeadParameters(algorithm)->name) + "'";
        }
    }
    return names.empty() ? "none" : names;
}

void ThrowAeadError(Napi::Env env,
                    crypto::AeadResult result,
                    crypto::AeadAlgorithm algorithm,
                    const AeadCallSizes& sizes)
{
    using crypto::AeadResult;
    const crypto::AeadParameters& parameters = *crypto::GetAeadParameters(algorithm);
    const std::string name(parameters.name);
    const char* code = AeadErrorCode(result);
    switch (result) {
    case AeadResult::kInvalidKeySize:
        ThrowError(
          env, ErrorKind::kRangeError, code,
          name + " needs a " + std::to_string(parameters.keySize) + "-byte key, got " + Bytes(sizes.key));
    case AeadResult::kInvalidNonceSize:
        ThrowError(env, ErrorKind::kRangeError, code,
                   name + " needs a " + std::to_string(parameters.nonceSize) + "-byte nonce, got " +
                     Bytes(sizes.nonce));
    case AeadResult::kCiphertextTooShort:
        ThrowError(env, ErrorKind::kRangeError, code,
                   name + " sealed data ends with a " + std::to_string(parameters.tagSize) +
                     "-byte tag, got only " + Bytes(sizes.input));
    case AeadResult::kInputTooLarge:
        ThrowError(env, ErrorKind::kRangeError, code,
                   name + " input is larger than " + Bytes(crypto::kAeadMaxInputSize));
    case AeadResult::kOutputTooSmall:
    case AeadResult::kOverlappingBuffers:
        ThrowError(env, ErrorKind::kRangeError, code, name + " output buffer is unusable (" + code + ")");
    case AeadResult::kAuthenticationFailed:
        ThrowError(env, ErrorKind::kError, code,
                   name + " authentication failed: the ciphertext, tag, AAD, key or nonce do not match");
    case AeadResult::kUnsupportedAlgorithm:
        ThrowError(env, ErrorKind::kTypeError, code,
                   name + " is not supported by this build's crypto backend");
    case AeadResult::kSuccess:
    case AeadResult::kBackendError:
        break;
    }
    ThrowError(env, ErrorKind::kError, AeadErrorCode(AeadResult::kBackendError),
               name + ": the crypto backend failed");
}

} // namespace sdkpp::addon
