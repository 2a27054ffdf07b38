// P-256 for the DAVE session's MLS cipher suite (core/crypto/p256.h), exported only when the linked
// libcrypto has EC (addon.cc asks P256Available()); src/media/dave/session/nativeP256.ts is the JS side.
// Sign, shared secret and public point throw ERR_P256_INVALID_KEY for a key they cannot use (a scalar out of
// range, a point off the curve, a wrong size); verification answers false instead, as node:crypto's does.

#include <openssl/crypto.h>

#include "core/crypto/p256.h"
#include "napi/args.h"
#include "napi/bindings.h"
#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

constexpr const char kInvalidKeyCode[] = "ERR_P256_INVALID_KEY";

[[noreturn]] void ThrowInvalidKey(Napi::Env env, const char* what, const ByteView& key)
{
    ThrowError(env, ErrorKind::kRangeError, kInvalidKeyCode,
               std::string("P-256: ") + what + " (a key of " + std::to_string(key.size()) +
                 " bytes) is not a usable key");
}

Napi::Buffer<uint8_t> Copy(Napi::Env env, const uint8_t* data, size_t size)
{
    return Napi::Buffer<uint8_t>::Copy(env, data, size);
}

} // namespace

Napi::Value P256Sign(const Napi::CallbackInfo& info)
{
    const ByteView scalar = BytesArg(info, 0, "scalar");
    const ByteView message = BytesArg(info, 1, "message");
    uint8_t signature[crypto::kP256MaxSignatureSize];
    size_t size = 0;
    if (!crypto::P256Sign(scalar, message, signature, &size)) {
        ThrowInvalidKey(info.Env(), "the signing scalar", scalar);
    }
    return Copy(info.Env(), signature, size);
}

Napi::Value P256Verify(const Napi::CallbackInfo& info)
{
    const ByteView point = BytesArg(info, 0, "point");
    const ByteView message = BytesArg(info, 1, "message");
    const ByteView signature = BytesArg(info, 2, "signature");
    return Napi::Boolean::New(info.Env(), crypto::P256Verify(point, message, signature));
}

Napi::Value P256SharedSecret(const Napi::CallbackInfo& info)
{
    const ByteView scalar = BytesArg(info, 0, "scalar");
    const ByteView point = BytesArg(info, 1, "point");
    uint8_t secret[crypto::kP256SharedSecretSize];
    if (!crypto::P256SharedSecret(scalar, point, secret)) {
        ThrowInvalidKey(info.Env(), "the scalar or the peer's point", point);
    }
    auto result = Copy(info.Env(), secret, sizeof(secret));
    OPENSSL_cleanse(secret, sizeof(secret));
    return result;
}

Napi::Value P256Generate(const Napi::CallbackInfo& info)
{
    uint8_t scalar[crypto::kP256ScalarSize];
    uint8_t point[crypto::kP256PointSize];
    if (!crypto::P256Generate(scalar, point)) {
        ThrowError(info.Env(), ErrorKind::kError, kInvalidKeyCode, "P-256: key generation failed");
    }
    Napi::Array pair = Napi::Array::New(info.Env(), 2);
    pair.Set(0u, Copy(info.Env(), scalar, sizeof(scalar)));
    pair.Set(1u, Copy(info.Env(), point, sizeof(point)));
    OPENSSL_cleanse(scalar, sizeof(scalar));
    return pair;
}

Napi::Value P256PublicPoint(const Napi::CallbackInfo& info)
{
    const ByteView scalar = BytesArg(info, 0, "scalar");
    uint8_t point[crypto::kP256PointSize];
    if (!crypto::P256PublicPoint(scalar, point)) {
        ThrowInvalidKey(info.Env(), "the scalar", scalar);
    }
    return Copy(info.Env(), point, sizeof(point));
}

} // namespace sdkpp::addon
