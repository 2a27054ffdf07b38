#pragma once

#include <napi.h>

#include <memory>

#include "core/devices/virtual_audio.h"

namespace sdkpp::addon {

// `new VirtualAudio()`: the SDK's virtual devices for a voice transport's thread to serve
// (core/devices/virtual_audio.h): a microphone fed ahead of time from a file, and the null speaker.
//   pushInput(Int16Array) -> samples queued (what did not fit is left to push again)
//   readInput(Int16Array) -> boolean (filled when that many samples wait; only while no transport reads)
//   stats() -> {inputQueued, outputSamples}
//   dispose()   (drops this object's hold; a transport that linked it keeps it until it lets go)
class VirtualAudioWrap final : public Napi::ObjectWrap<VirtualAudioWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit VirtualAudioWrap(const Napi::CallbackInfo& info);

    // The devices, for a voice transport to hold while it may use them (null once disposed).
    std::shared_ptr<devices::VirtualAudio> Shared() const { return audio_; }
    // The object wrapped by `value`, or null when it is not one (of this environment's addon).
    static VirtualAudioWrap* From(const Napi::Value& value);

private:
    Napi::Value PushInput(const Napi::CallbackInfo& info);
    Napi::Value ReadInput(const Napi::CallbackInfo& info);
    Napi::Value Stats(const Napi::CallbackInfo& info);
    Napi::Value Dispose(const Napi::CallbackInfo& info);

    devices::VirtualAudio& Live(const Napi::Env& env);

    std::shared_ptr<devices::VirtualAudio> audio_;
};

} // namespace sdkpp::addon
