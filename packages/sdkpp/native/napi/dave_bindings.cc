// Free functions of the DAVE media layer: its result names, and the key derivations exposed for tests
// against published vectors and node:crypto (the per-frame work is in dave_wrap.cc).

#include <string>

#include "core/crypto/hkdf.h"
#include "core/dave/dave_selftest.h"
#include "core/dave/key_ratchet.h"
#include "core/dave/result.h"
#include "napi/args.h"
#include "napi/dave_bindings.h"
#include "napi/errors.h"
#include "napi/reports.h"

namespace sdkpp::addon {

Napi::Value DaveResultNames(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    return ResultNameArray<dave::Result>(env, dave::kResultCount, dave::ResultName);
}

Napi::Value DaveFrameKey(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const ByteView base = BytesArg(info, 0, "baseSecret");
    if (base.size() != dave::kBaseSecretSize) {
        ThrowError(env, ErrorKind::kRangeError, "ERR_DAVE_INVALID_KEY_SIZE",
                   "A DAVE sender key is 16 bytes, got " + std::to_string(base.size()));
    }
    if (!info[1].IsNumber()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"generation\" argument must be a number");
    }
    const double generation = info[1].As<Napi::Number>().DoubleValue();
    if (!(generation >= 0 && generation <= 65535) ||
        generation != static_cast<double>(static_cast<int>(generation))) {
        ThrowError(env, ErrorKind::kRangeError, "ERR_OUT_OF_RANGE",
                   "The \"generation\" must be an integer 0-65535");
    }
    dave::HashRatchet ratchet;
    uint8_t key[dave::kFrameKeySize];
    if (!ratchet.Reset(base) || !ratchet.AdvanceTo(static_cast<uint64_t>(generation), key)) {
        ThrowError(env, ErrorKind::kError, "ERR_DAVE_BACKEND", "The key derivation failed");
    }
    return Napi::Buffer<uint8_t>::Copy(env, key, sizeof(key));
}

Napi::Value HkdfSha256Extract(const Napi::CallbackInfo& info)
{
    const ByteView salt = BytesArg(info, 0, "salt");
    const ByteView ikm = BytesArg(info, 1, "ikm");
    uint8_t prk[crypto::kSha256Size];
    if (!crypto::HkdfSha256Extract(salt, ikm, prk)) {
        ThrowError(info.Env(), ErrorKind::kError, "ERR_DAVE_BACKEND", "HKDF-Extract failed");
    }
    return Napi::Buffer<uint8_t>::Copy(info.Env(), prk, sizeof(prk));
}

Napi::Value HkdfSha256Expand(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const ByteView prk = BytesArg(info, 0, "prk");
    const ByteView infoBytes = BytesArg(info, 1, "info");
    if (!info[2].IsNumber()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"length\" argument must be a number");
    }
    const double length = info[2].As<Napi::Number>().DoubleValue();
    if (!(length >= 1 && length <= static_cast<double>(crypto::kHkdfSha256MaxOutput)) ||
        length != static_cast<double>(static_cast<size_t>(length))) {
        ThrowError(env, ErrorKind::kRangeError, "ERR_OUT_OF_RANGE", "The \"length\" must be 1-8160");
    }
    auto out = Napi::Buffer<uint8_t>::New(env, static_cast<size_t>(length));
    if (!crypto::HkdfSha256Expand(prk, infoBytes, MutableByteView{out.Data(), out.Length()})) {
        ThrowError(env, ErrorKind::kError, "ERR_DAVE_BACKEND",
                   "HKDF-Expand failed (info longer than 256 bytes?)");
    }
    return out;
}

Napi::Value DaveSelfTest(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const dave::DaveSelfTestReport report = dave::RunDaveSelfTest();
    auto result = SelfTestObject(env, report);
    result.Set("countingAvailable", report.countingAvailable);
    result.Set("allocationsInFrames", static_cast<double>(report.allocationsInFrames));
    result.Set("frames", static_cast<double>(report.frames));
    return result;
}

} // namespace sdkpp::addon
