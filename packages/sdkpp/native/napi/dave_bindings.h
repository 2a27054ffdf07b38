#pragma once

// The DAVE media layer's free functions (dave_bindings.cc); the classes are in dave_wrap.h. Their JS
// shape is typed in src/media/addon/types.ts.

#include <napi.h>

namespace sdkpp::addon {

// daveResultNames() -> string[] indexed by dave::Result
Napi::Value DaveResultNames(const Napi::CallbackInfo& info);
// daveFrameKey(baseSecret, generation) -> Buffer(16): the hash ratchet's key of that generation
Napi::Value DaveFrameKey(const Napi::CallbackInfo& info);
// hkdfSha256Extract(salt, ikm) -> Buffer(32); hkdfSha256Expand(prk, info, length) -> Buffer(length)
Napi::Value HkdfSha256Extract(const Napi::CallbackInfo& info);
Napi::Value HkdfSha256Expand(const Napi::CallbackInfo& info);
// daveSelfTest() -> {ok, checks, countingAvailable, allocationsInFrames, frames}: core/dave/dave_selftest.h
Napi::Value DaveSelfTest(const Napi::CallbackInfo& info);

} // namespace sdkpp::addon
