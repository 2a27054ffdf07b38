#pragma once

#include <napi.h>

#include "core/crypto/aead.h"
#include "core/span.h"

namespace sdkpp::addon {

// A view of a Uint8Array argument (Buffer included), valid for the duration of the call. Anything else
// throws a TypeError with code ERR_INVALID_ARG_TYPE naming the parameter.
ByteView BytesArg(const Napi::CallbackInfo& info, size_t index, const char* name);

// The algorithm named by a string argument; throws ERR_INVALID_ARG_TYPE for a non-string and
// ERR_AEAD_UNSUPPORTED_ALGORITHM for a name that is unknown or missing from this build's backend.
crypto::AeadAlgorithm AeadAlgorithmArg(const Napi::CallbackInfo& info, size_t index);

} // namespace sdkpp::addon
