#include "napi/virtual_audio_wrap.h"

#include "napi/addon_data.h"
#include "napi/audio_args.h"
#include "napi/errors.h"

namespace sdkpp::addon {

Napi::Function VirtualAudioWrap::Define(Napi::Env env)
{
    Napi::Function function = DefineClass(env, "VirtualAudio",
                                          {
                                            InstanceMethod<&VirtualAudioWrap::PushInput>("pushInput"),
                                            InstanceMethod<&VirtualAudioWrap::ReadInput>("readInput"),
                                            InstanceMethod<&VirtualAudioWrap::Stats>("stats"),
                                            InstanceMethod<&VirtualAudioWrap::Dispose>("dispose"),
                                          });
    DataOf(env).virtualAudio = Napi::Persistent(function);
    return function;
}

VirtualAudioWrap* VirtualAudioWrap::From(const Napi::Value& value)
{
    return UnwrapIf<VirtualAudioWrap>(value, DataOf(value.Env()).virtualAudio);
}

VirtualAudioWrap::VirtualAudioWrap(const Napi::CallbackInfo& info)
  : Napi::ObjectWrap<VirtualAudioWrap>(info), audio_(std::make_shared<devices::VirtualAudio>())
{
}

devices::VirtualAudio& VirtualAudioWrap::Live(const Napi::Env& env)
{
    if (!audio_) ThrowError(env, ErrorKind::kError, "ERR_VIRTUAL_AUDIO_DISPOSED", "the virtual audio was disposed");
    return *audio_;
}

Napi::Value VirtualAudioWrap::PushInput(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> in = Int16Arg(info, 0, "pcm");
    return Napi::Number::New(env, static_cast<double>(Live(env).PushInput(in.data(), in.size())));
}

Napi::Value VirtualAudioWrap::ReadInput(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    return Napi::Boolean::New(env, Live(env).ReadInput(out.data(), out.size(), out.size()));
}

Napi::Value VirtualAudioWrap::Stats(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const devices::VirtualAudio& audio = Live(env);
    Napi::Object out = Napi::Object::New(env);
    out.Set("inputQueued", static_cast<double>(audio.InputQueued()));
    out.Set("outputSamples", static_cast<double>(audio.OutputSamples()));
    return out;
}

Napi::Value VirtualAudioWrap::Dispose(const Napi::CallbackInfo& info)
{
    audio_.reset();
    return info.Env().Undefined();
}

} // namespace sdkpp::addon
