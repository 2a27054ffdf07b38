#include "core/audio/opus_codec.h"
#include "core/crypto/aead.h"
#include "core/crypto/backend_info.h"
#include "core/devices/system_audio.h"
#include "core/selftest.h"
#include "core/transport/udp_socket.h"
#include "core/version.h"
#include "napi/bindings.h"

namespace sdkpp::addon {
namespace {

Napi::String Str(Napi::Env env, std::string_view text)
{
    return Napi::String::New(env, text.data(), text.size());
}

Napi::String AlgorithmName(Napi::Env env, crypto::AeadAlgorithm algorithm)
{
    return Str(env, crypto::GetAeadParameters(algorithm)->name);
}

} // namespace

Napi::Value Version(const Napi::CallbackInfo& info)
{
    return Napi::String::New(info.Env(), kAddonVersion);
}

Napi::Value EngineInfo(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const crypto::CryptoBackendInfo backend = crypto::GetCryptoBackendInfo();

    auto cryptoInfo = Napi::Object::New(env);
    cryptoInfo.Set("backend", Str(env, backend.name));
    cryptoInfo.Set("version", Str(env, backend.version));
    cryptoInfo.Set("linkage", Str(env, backend.linkage));

    auto features = Napi::Array::New(env);
    uint32_t count = 0;
    for (const crypto::AeadAlgorithm algorithm : crypto::kAeadAlgorithms) {
        if (crypto::IsAeadAlgorithmSupported(algorithm)) {
            features.Set(count++, AlgorithmName(env, algorithm));
        }
    }

    auto result = Napi::Object::New(env);
    result.Set("name", "native");
    result.Set("version", kAddonVersion);
    result.Set("abi", kAddonAbi);
    result.Set("crypto", cryptoInfo);
    // null in a build without libopus: the JS side then supplies the codec.
    const char* opusVersion = audio::OpusVersionString();
    if (opusVersion == nullptr) {
        result.Set("opus", env.Null());
    } else {
        auto opus = Napi::Object::New(env);
        opus.Set("version", opusVersion);
        result.Set("opus", opus);
    }
    result.Set("features", features);

    // Whether this build has the system's microphones and speakers, and if not why, in the words the
    // device calls would fail with (a macOS prebuild, cross-built without Apple's SDK, has none).
    auto systemAudio = Napi::Object::New(env);
    const bool devicesBuilt = devices::SystemAudioBuilt();
    systemAudio.Set("available", devicesBuilt);
    if (devicesBuilt) {
        systemAudio.Set("reason", env.Null());
    } else {
        std::string why;
        devices::CreateSystemAudio(&why);
        systemAudio.Set("reason", why);
    }
    result.Set("systemAudio", systemAudio);
    // The transport's own thread needs this OS's UDP layer and libopus in the addon.
    result.Set("voiceTransport", transport::UdpSocketsAvailable() && opusVersion != nullptr);
    return result;
}

Napi::Value CryptoSelfTest(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const CryptoSelfTestReport report = RunCryptoSelfTest();

    auto results = Napi::Array::New(env, report.count);
    for (size_t i = 0; i < report.count; ++i) {
        const AeadSelfTestResult& entry = report.results[i];
        auto item = Napi::Object::New(env);
        item.Set("algorithm", AlgorithmName(env, entry.algorithm));
        item.Set("ok", entry.Ok());
        item.Set("knownAnswer", entry.knownAnswer);
        item.Set("roundTrip", entry.roundTrip);
        item.Set("rejectsTampering", entry.rejectsTampering);
        results.Set(static_cast<uint32_t>(i), item);
    }

    auto result = Napi::Object::New(env);
    result.Set("ok", report.Ok());
    result.Set("results", results);
    return result;
}

} // namespace sdkpp::addon
