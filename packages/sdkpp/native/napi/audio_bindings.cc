#include "core/audio/audio_result.h"
#include "core/audio/audio_selftest.h"
#include "napi/bindings.h"
#include "napi/reports.h"

namespace sdkpp::addon {

Napi::Value AudioResultNames(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    return ResultNameArray<audio::AudioResult>(env, audio::kAudioResultCount, audio::AudioResultName);
}

Napi::Value AudioSelfTest(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const audio::AudioSelfTestReport report = audio::RunAudioSelfTest();
    auto result = SelfTestObject(env, report);
    result.Set("countingAvailable", report.countingAvailable);
    result.Set("codecAvailable", report.codecAvailable);
    result.Set("allocationsInTicks", static_cast<double>(report.allocationsInTicks));
    result.Set("ticks", static_cast<double>(report.ticks));
    return result;
}

} // namespace sdkpp::addon
