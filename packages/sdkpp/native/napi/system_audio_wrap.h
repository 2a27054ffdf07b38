#pragma once

#include <napi.h>

#include <memory>

#include "core/devices/system_audio.h"

namespace sdkpp::addon {

// `new SystemAudio()`: the system's microphones and speakers (core/devices/system_audio.h). Throws an
// Error with code ERR_SYSTEM_AUDIO_UNAVAILABLE and the reason when no backend starts or the build has none.
//   backend() -> 'PulseAudio' | 'ALSA' | ...
//   list('input'|'output') -> [{id, name, isDefault}]
//   open('input'|'output', id: string | null)   (null follows the system default; throws
//                                                 ERR_AUDIO_DEVICE_NOT_FOUND / ERR_AUDIO_DEVICE_FAILED)
//   close(direction); status(direction) -> {open, followsDefault, id, name, callbacks, droppedSamples,
//                                          missingSamples, reopened}
//   read(Int16Array, maxBacklogSamples) -> boolean (the array filled from the microphone, or nothing yet)
//   write(Int16Array) -> samples queued for the speaker
//   inputAvailable() / outputQueued() -> samples waiting
//   takeEvents() -> [{kind: 'devices-changed'} | {kind: 'device-lost', direction, lostId, reason,
//                    fallbackOpened, fallbackName}]
//   dispose()   (closes both streams and stops the watcher thread; also done by the finalizer)
class SystemAudioWrap final : public Napi::ObjectWrap<SystemAudioWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit SystemAudioWrap(const Napi::CallbackInfo& info);

    // The devices, for a voice transport to link (null once disposed). Shared: a linked transport keeps
    // them until it no longer uses them, even past dispose().
    std::shared_ptr<devices::SystemAudio> Shared() const { return system_; }
    // The SystemAudio wrapped by `value`, or null when it is not one (of this environment's addon).
    static SystemAudioWrap* From(const Napi::Value& value);

private:
    Napi::Value Backend(const Napi::CallbackInfo& info);
    Napi::Value List(const Napi::CallbackInfo& info);
    Napi::Value Open(const Napi::CallbackInfo& info);
    Napi::Value Close(const Napi::CallbackInfo& info);
    Napi::Value Status(const Napi::CallbackInfo& info);
    Napi::Value Read(const Napi::CallbackInfo& info);
    Napi::Value Write(const Napi::CallbackInfo& info);
    Napi::Value InputAvailable(const Napi::CallbackInfo& info);
    Napi::Value OutputQueued(const Napi::CallbackInfo& info);
    Napi::Value TakeEvents(const Napi::CallbackInfo& info);
    Napi::Value Dispose(const Napi::CallbackInfo& info);

    devices::SystemAudio& Live(const Napi::Env& env);

    std::shared_ptr<devices::SystemAudio> system_;
};

// systemAudioBuilt() -> whether this build carries system audio.
Napi::Value SystemAudioBuilt(const Napi::CallbackInfo& info);

} // namespace sdkpp::addon
