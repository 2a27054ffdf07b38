#pragma once

#include <node_api.h>

#include <atomic>

#include "core/transport/voice_transport.h"

namespace sdkpp::addon {

// Carries the transport thread's events (TransportListener) to a JavaScript function on the owner's thread,
// through a Node-API thread-safe function. At most one call waits in its queue at a time: the owner reads
// the counters when it runs, so one wake-up covers any number of events since the last. The function does
// not keep the event loop alive.
//
// The thread-safe function owns the relay: it is deleted when Node finalizes the function, after any call
// still queued has run, so a late call never finds it gone. The owner calls Release() once, only after the
// transport thread is joined (nothing calls OnTransportEvent after that) and before the environment tears
// thread-safe functions down (see VoiceTransportWrap's cleanup hook), and does not use the relay again.
class TransportEventRelay final : public transport::TransportListener {
public:
    // Null when Node-API refuses (or no memory).
    static TransportEventRelay* Create(napi_env env, napi_value callback) noexcept;
    TransportEventRelay(const TransportEventRelay&) = delete;
    TransportEventRelay& operator=(const TransportEventRelay&) = delete;

    void OnTransportEvent() noexcept override;
    void Release() noexcept;

private:
    TransportEventRelay() = default;
    ~TransportEventRelay() = default;
    static void CallJs(napi_env env, napi_value callback, void* context, void* data);
    static void Finalize(napi_env env, void* data, void* hint);

    napi_threadsafe_function function_ = nullptr;
    std::atomic<bool> pending_{false};
};

} // namespace sdkpp::addon
