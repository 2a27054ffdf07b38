#pragma once

#include <napi.h>

#include <string>

#include "core/crypto/aead.h"

namespace sdkpp::addon {

// Node's own code for a wrong argument type, so callers can handle ours and Node's alike.
inline constexpr const char kInvalidArgTypeCode[] = "ERR_INVALID_ARG_TYPE";

enum class ErrorKind { kError, kTypeError, kRangeError };

// Throws a JS error of `kind` whose `code` property is `code`. Messages carry sizes and names only, never
// argument bytes, so that no key material can reach a log.
[[noreturn]] void ThrowError(Napi::Env env, ErrorKind kind, const char* code, const std::string& message);

// The `code` string of a result, e.g. "ERR_AEAD_AUTHENTICATION_FAILED" (src/media/MediaEngineError.ts).
const char* AeadErrorCode(crypto::AeadResult result) noexcept;

// "'aes-256-gcm', 'chacha20-poly1305'": the names this build's backend accepts.
std::string SupportedAeadNames();

// The sizes of the call that failed, for the message.
struct AeadCallSizes {
    size_t key;
    size_t nonce;
    size_t input;
};

[[noreturn]] void ThrowAeadError(Napi::Env env,
                                 crypto::AeadResult result,
                                 crypto::AeadAlgorithm algorithm,
                                 const AeadCallSizes& sizes);

} // namespace sdkpp::addon
