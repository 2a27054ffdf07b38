#include <napi.h>

#include <string>

#include "core/crypto/backend_info.h"
#include "core/crypto/p256.h"
#include "napi/audio_wraps.h"
#include "napi/bindings.h"
#include "napi/dave_bindings.h"
#include "napi/dave_wrap.h"
#include "napi/errors.h"
#include "napi/processing_link_wrap.h"
#include "napi/system_audio_wrap.h"
#include "napi/transport_cryptor_wrap.h"
#include "napi/virtual_audio_wrap.h"
#include "napi/voice_transport_wrap.h"

namespace sdkpp::addon {
namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports)
{
    // Refuse to load rather than call into a crypto library of another major version: the loader turns
    // this error into the JS engine fallback, where a call would have been undefined behaviour.
    const crypto::CryptoBackendInfo backend = crypto::GetCryptoBackendInfo();
    if (!backend.compatible) {
        ThrowError(env, ErrorKind::kError, "ERR_SDKPP_CRYPTO_BACKEND_MISMATCH",
                   "sdkpp_native was built against " + std::string(backend.buildVersion) +
                     " but this process provides " + std::string(backend.version));
    }
    exports.Set("version", Napi::Function::New(env, Version, "version"));
    exports.Set("engineInfo", Napi::Function::New(env, EngineInfo, "engineInfo"));
    exports.Set("cryptoSelfTest", Napi::Function::New(env, CryptoSelfTest, "cryptoSelfTest"));
    exports.Set("aeadSeal", Napi::Function::New(env, AeadSeal, "aeadSeal"));
    exports.Set("aeadOpen", Napi::Function::New(env, AeadOpen, "aeadOpen"));
    exports.Set("rtpResultNames", Napi::Function::New(env, RtpResultNames, "rtpResultNames"));
    exports.Set("rtpParsePacket", Napi::Function::New(env, RtpParsePacket, "rtpParsePacket"));
    exports.Set("rtpWriteHeader", Napi::Function::New(env, RtpWriteHeader, "rtpWriteHeader"));
    exports.Set("ipDiscoveryWrite", Napi::Function::New(env, IpDiscoveryWrite, "ipDiscoveryWrite"));
    exports.Set("ipDiscoveryParse", Napi::Function::New(env, IpDiscoveryParse, "ipDiscoveryParse"));
    exports.Set("transportSelfTest", Napi::Function::New(env, TransportSelfTest, "transportSelfTest"));
    exports.Set("TransportCryptor", TransportCryptorWrap::Define(env));
    exports.Set("daveResultNames", Napi::Function::New(env, DaveResultNames, "daveResultNames"));
    exports.Set("daveFrameKey", Napi::Function::New(env, DaveFrameKey, "daveFrameKey"));
    exports.Set("hkdfSha256Extract", Napi::Function::New(env, HkdfSha256Extract, "hkdfSha256Extract"));
    exports.Set("hkdfSha256Expand", Napi::Function::New(env, HkdfSha256Expand, "hkdfSha256Expand"));
    // P-256 for the MLS cipher suite, only where the libcrypto has EC (the JS side then uses node:crypto).
    if (crypto::P256Available()) {
        exports.Set("p256Sign", Napi::Function::New(env, P256Sign, "p256Sign"));
        exports.Set("p256Verify", Napi::Function::New(env, P256Verify, "p256Verify"));
        exports.Set("p256SharedSecret", Napi::Function::New(env, P256SharedSecret, "p256SharedSecret"));
        exports.Set("p256Generate", Napi::Function::New(env, P256Generate, "p256Generate"));
        exports.Set("p256PublicPoint", Napi::Function::New(env, P256PublicPoint, "p256PublicPoint"));
    }
    exports.Set("daveSelfTest", Napi::Function::New(env, DaveSelfTest, "daveSelfTest"));
    exports.Set("DaveEncryptor", DaveEncryptorWrap::Define(env));
    exports.Set("DaveDecryptor", DaveDecryptorWrap::Define(env));
    exports.Set("audioResultNames", Napi::Function::New(env, AudioResultNames, "audioResultNames"));
    exports.Set("audioSelfTest", Napi::Function::New(env, AudioSelfTest, "audioSelfTest"));
    exports.Set("OpusEncoder", OpusEncoderWrap::Define(env));
    exports.Set("OpusDecoder", OpusDecoderWrap::Define(env));
    exports.Set("JitterBuffer", JitterBufferWrap::Define(env));
    exports.Set("AudioProcessor", AudioProcessorWrap::Define(env));
    exports.Set("VoiceTransport", VoiceTransportWrap::Define(env));
    exports.Set("systemAudioBuilt", Napi::Function::New(env, SystemAudioBuilt, "systemAudioBuilt"));
    exports.Set("SystemAudio", SystemAudioWrap::Define(env));
    exports.Set("VoiceProcessingLink", ProcessingLinkWrap::Define(env));
    exports.Set("VirtualAudio", VirtualAudioWrap::Define(env));
    return exports;
}

} // namespace
} // namespace sdkpp::addon

// NODE_API_MODULE pastes the name into an identifier, so it needs an unqualified one.
static Napi::Object InitSdkppNative(Napi::Env env, Napi::Object exports)
{
    return sdkpp::addon::Init(env, exports);
}

NODE_API_MODULE(NODE_GYP_MODULE_NAME, InitSdkppNative)
