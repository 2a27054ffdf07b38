#include "core/audio/audio_result.h"
#include "core/audio/audio_selftest.h"
#include "napi/bindings.h"

namespace sdkpp::addon {

Napi::Value AudioResultNames(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    auto names = Napi::Array::New(env, audio::kAudioResultCount);
    for (uint32_t i = 0; i < audio::kAudioResultCount; ++i) {
        const std::string_view name = audio::AudioResultName(static_cast<audio::AudioResult>(i));
        names.Set(i, Napi::String::New(env, name.data(), name.size()));
    }
    return names;
}

Napi::Value AudioSelfTest(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const audio::AudioSelfTestReport report = audio::RunAudioSelfTest();
    auto checks = Napi::Array::New(env, report.count);
    for (size_t i = 0; i < report.count; ++i) {
        auto item = Napi::Object::New(env);
        const std::string_view name = report.checks[i].name;
        item.Set("name", Napi::String::New(env, name.data(), name.size()));
        item.Set("ok", report.checks[i].ok);
        checks.Set(static_cast<uint32_t>(i), item);
    }
    auto result = Napi::Object::New(env);
    result.Set("ok", report.Ok());
    result.Set("checks", checks);
    result.Set("countingAvailable", report.countingAvailable);
    result.Set("codecAvailable", report.codecAvailable);
    result.Set("allocationsInTicks", static_cast<double>(report.allocationsInTicks));
    result.Set("ticks", static_cast<double>(report.ticks));
    return result;
}

} // namespace sdkpp::addon
