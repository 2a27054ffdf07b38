#pragma once

#include <napi.h>

#include <cstdint>

#include "core/span.h"

namespace sdkpp::addon {

// Views of typed-array arguments for the audio calls, valid for the duration of the call. A wrong type
// throws a TypeError with code ERR_INVALID_ARG_TYPE naming the parameter; lengths are never trusted and
// are checked by core/audio, which returns a result code.
Span<int16_t> Int16Arg(const Napi::CallbackInfo& info, size_t index, const char* name);
Span<uint32_t> Uint32Arg(const Napi::CallbackInfo& info, size_t index, const char* name);
MutableByteView MutableBytesArg(const Napi::CallbackInfo& info, size_t index, const char* name);
// A finite number, else ERR_INVALID_ARG_TYPE.
double NumberArg(const Napi::CallbackInfo& info, size_t index, const char* name);
bool BoolArg(const Napi::CallbackInfo& info, size_t index, const char* name);

} // namespace sdkpp::addon
