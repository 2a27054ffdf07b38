#pragma once

#include <napi.h>

#include <memory>
#include <vector>

#include "core/transport/voice_transport.h"
#include "napi/transport_event_relay.h"

namespace sdkpp::addon {

// `new VoiceTransport({serverHost, serverPort, ssrc, bindHost?, discover?, discoveryTimeoutMs?,
// discoveryAttempts?, bitrate?, raisePriority?, onEvent?})`: the native transport thread (core/transport).
// Every method returns at once: PCM and keys cross through lock-free queues, never a lock the thread could
// hold.
//   start() -> local port; stop(); state() -> 'idle'|'discovering'|'running'|'discovery-failed'|'stopped'
//   discovered() -> {address, port} | null
//   setTransportKey(mode, key); setDaveSendKey(secret); setDaveReceiveKey(ssrc, secret)
//   setDavePassthrough(enabled); setSelfMute(muted); setSelfDeaf(deafened)
//   setPushToTalkMode(on); setPushToTalk(pressed); setPushToTalkReleaseDelayMs(ms); setVadThresholdDb(db); setCaptureGain(g); setUserGain(ssrc, g)
//   removeSpeaker(ssrc)
//   pushPcm(Int16Array) -> frames accepted; pullPcm(Int16Array) -> frames written; pcmAvailable()
//   setSpeakerOutput(enabled); pullSpeakerPcm(Int16Array, ssrcs: Uint32Array, ticks: Uint32Array) -> frames
//   stats() -> {counter: number, ...}; statsInto(Float64Array) -> count, the same counters in the order of
//   the static statsFields() -> names
//   linkSystemAudio(systemAudio | voiceProcessingLink | null, capture, playback, playbackGain)
//                                                                   (see VoiceTransport::LinkDevices)
// onEvent() is called on the JS thread after a transmission began or ended (TransportListener), at most
// one call pending at a time.
// The thread is joined by stop(), by the finalizer, and by an environment cleanup hook (a worker or the
// process ending with the transport still running), whichever comes first.
class VoiceTransportWrap final : public Napi::ObjectWrap<VoiceTransportWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit VoiceTransportWrap(const Napi::CallbackInfo& info);
    ~VoiceTransportWrap() override;

private:
    Napi::Value Start(const Napi::CallbackInfo& info);
    Napi::Value Stop(const Napi::CallbackInfo& info);
    Napi::Value State(const Napi::CallbackInfo& info);
    Napi::Value Discovered(const Napi::CallbackInfo& info);
    Napi::Value SetTransportKey(const Napi::CallbackInfo& info);
    Napi::Value SetDaveSendKey(const Napi::CallbackInfo& info);
    Napi::Value SetDaveReceiveKey(const Napi::CallbackInfo& info);
    Napi::Value SetDavePassthrough(const Napi::CallbackInfo& info);
    Napi::Value SetSelfMute(const Napi::CallbackInfo& info);
    Napi::Value SetSelfDeaf(const Napi::CallbackInfo& info);
    Napi::Value SetPushToTalkMode(const Napi::CallbackInfo& info);
    Napi::Value SetPushToTalk(const Napi::CallbackInfo& info);
    Napi::Value SetPushToTalkReleaseDelayMs(const Napi::CallbackInfo& info);
    Napi::Value SetSpeakerOutput(const Napi::CallbackInfo& info);
    Napi::Value PullSpeakerPcm(const Napi::CallbackInfo& info);
    Napi::Value SetVadThresholdDb(const Napi::CallbackInfo& info);
    Napi::Value SetCaptureGain(const Napi::CallbackInfo& info);
    Napi::Value SetUserGain(const Napi::CallbackInfo& info);
    Napi::Value RemoveSpeaker(const Napi::CallbackInfo& info);
    Napi::Value PushPcm(const Napi::CallbackInfo& info);
    Napi::Value PullPcm(const Napi::CallbackInfo& info);
    Napi::Value PcmAvailable(const Napi::CallbackInfo& info);
    Napi::Value Stats(const Napi::CallbackInfo& info);
    // Writes the counters into a Float64Array (the order of StatsFields); returns how many.
    Napi::Value StatsInto(const Napi::CallbackInfo& info);
    static Napi::Value StatsFields(const Napi::CallbackInfo& info);
    Napi::Value LinkSystemAudio(const Napi::CallbackInfo& info);

    static void Cleanup(void* self);
    void ReleaseEvents() noexcept;

    // The `onEvent` option's relay (owned by its thread-safe function; released once the thread is joined).
    TransportEventRelay* events_ = nullptr;
    std::unique_ptr<transport::VoiceTransport> transport_;
    // Everything ever linked (a system audio and a processing link, in practice): the thread may use one
    // until its next tick, so they are released only after transport_ (whose destruction joins the thread).
    std::vector<std::shared_ptr<devices::LinkedAudio>> linked_;
    napi_env env_ = nullptr;
};

} // namespace sdkpp::addon
