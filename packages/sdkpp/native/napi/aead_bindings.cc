#include "napi/args.h"
#include "napi/bindings.h"
#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

// The five arguments shared by aeadSeal and aeadOpen, checked in order.
struct AeadArgs {
    crypto::AeadAlgorithm algorithm;
    ByteView key;
    ByteView nonce;
    ByteView aad;
    ByteView input;
};

AeadArgs ReadAeadArgs(const Napi::CallbackInfo& info, const char* inputName)
{
    return AeadArgs{
      AeadAlgorithmArg(info, 0), BytesArg(info, 1, "key"),     BytesArg(info, 2, "nonce"),
      BytesArg(info, 3, "aad"),  BytesArg(info, 4, inputName),
    };
}

void Check(Napi::Env env, crypto::AeadResult result, const AeadArgs& args)
{
    if (result != crypto::AeadResult::kSuccess) {
        ThrowAeadError(env, result, args.algorithm, {args.key.size(), args.nonce.size(), args.input.size()});
    }
}

std::unique_ptr<crypto::IAeadCipher> MakeCipher(Napi::Env env, const AeadArgs& args)
{
    crypto::AeadResult result = crypto::AeadResult::kBackendError;
    auto cipher = crypto::CreateAeadCipher(args.algorithm, args.key, &result);
    if (!cipher) {
        Check(env, result == crypto::AeadResult::kSuccess ? crypto::AeadResult::kBackendError : result, args);
    }
    return cipher;
}

} // namespace

Napi::Value AeadSeal(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const AeadArgs args = ReadAeadArgs(info, "plaintext");
    const auto cipher = MakeCipher(env, args);
    size_t sealedSize = 0;
    Check(env, crypto::SealedSize(args.algorithm, args.input.size(), &sealedSize), args);
    auto sealed = Napi::Buffer<uint8_t>::New(env, sealedSize);
    Check(env, cipher->Seal(args.nonce, args.aad, args.input, {sealed.Data(), sealed.Length()}, nullptr),
          args);
    return sealed;
}

Napi::Value AeadOpen(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const AeadArgs args = ReadAeadArgs(info, "ciphertextWithTag");
    const auto cipher = MakeCipher(env, args);
    size_t plaintextSize = 0;
    Check(env, crypto::OpenedSize(args.algorithm, args.input.size(), &plaintextSize), args);
    auto plaintext = Napi::Buffer<uint8_t>::New(env, plaintextSize);
    Check(env,
          cipher->Open(args.nonce, args.aad, args.input, {plaintext.Data(), plaintext.Length()}, nullptr),
          args);
    return plaintext;
}

} // namespace sdkpp::addon
