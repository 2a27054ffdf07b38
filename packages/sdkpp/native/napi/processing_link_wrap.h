#pragma once

#include <napi.h>

#include <memory>

#include "core/devices/processing_link.h"

namespace sdkpp::addon {

// `new VoiceProcessingLink(systemAudio)`: voice processing between the system devices and a voice
// transport's thread (core/devices/processing_link.h), for a transport to link instead of the SystemAudio.
// `new VoiceProcessingLink(id)` opens the same link in another environment (a worker thread), which is
// where its processing side runs: readCapture blocks the calling thread.
//   id() -> number (process-wide, for another environment to open this link by)
//   readCapture(Int16Array, waitMs 0..100) -> boolean (filled from the microphone, or nothing within waitMs)
//   readRender(Int16Array) -> boolean (filled with what the speaker played, or nothing yet)
//   writeProcessed(Int16Array) -> samples queued for the transport
//   stats() -> {captureBlocks, processedSamples, processedDropped, renderDropped}
//   dispose()   (drops this object's hold; the link lives while a transport or another environment holds it)
// A link that is not found (disposed everywhere) throws ERR_PROCESSING_LINK_NOT_FOUND.
class ProcessingLinkWrap final : public Napi::ObjectWrap<ProcessingLinkWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit ProcessingLinkWrap(const Napi::CallbackInfo& info);

    // The link, for a voice transport to hold while it may use it (null once disposed).
    std::shared_ptr<devices::ProcessingLink> Shared() const { return link_; }
    // The link wrapped by `value`, or null when it is not one (of this environment's addon).
    static ProcessingLinkWrap* From(const Napi::Value& value);

private:
    Napi::Value Id(const Napi::CallbackInfo& info);
    Napi::Value ReadCapture(const Napi::CallbackInfo& info);
    Napi::Value ReadRender(const Napi::CallbackInfo& info);
    Napi::Value WriteProcessed(const Napi::CallbackInfo& info);
    Napi::Value Stats(const Napi::CallbackInfo& info);
    Napi::Value Dispose(const Napi::CallbackInfo& info);

    devices::ProcessingLink& Live(const Napi::Env& env);

    std::shared_ptr<devices::ProcessingLink> link_;
    uint32_t id_ = 0;
};

} // namespace sdkpp::addon
