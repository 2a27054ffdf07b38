#pragma once

// The functions addon.cc exports. Their JS shape is typed in one place: src/native/types.ts.

#include <napi.h>

namespace sdkpp::addon {

Napi::Value Version(const Napi::CallbackInfo& info);
Napi::Value EngineInfo(const Napi::CallbackInfo& info);
Napi::Value CryptoSelfTest(const Napi::CallbackInfo& info);

// One-shot helpers: a fresh cipher per call. Tests compare them with node:crypto; the per-packet path
// (a cipher per key, caller-owned buffers) arrives with the transport.
Napi::Value AeadSeal(const Napi::CallbackInfo& info);
Napi::Value AeadOpen(const Napi::CallbackInfo& info);

} // namespace sdkpp::addon
