#include "napi/transport_event_relay.h"

#include <new>

namespace sdkpp::addon {

TransportEventRelay* TransportEventRelay::Create(napi_env env, napi_value callback) noexcept
{
    auto* relay = new (std::nothrow) TransportEventRelay();
    if (relay == nullptr) {
        return nullptr;
    }
    napi_value name = nullptr;
    if (napi_create_string_utf8(env, "sdkpp transport events", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_create_threadsafe_function(env, callback, nullptr, name, 1, 1, relay, &TransportEventRelay::Finalize,
                                        relay, &TransportEventRelay::CallJs, &relay->function_) != napi_ok) {
        delete relay;
        return nullptr;
    }
    // A call that waits for its transport's events must not keep the process running by itself.
    napi_unref_threadsafe_function(env, relay->function_);
    return relay;
}

void TransportEventRelay::Finalize(napi_env /*env*/, void* data, void* /*hint*/)
{
    delete static_cast<TransportEventRelay*>(data);
}

void TransportEventRelay::OnTransportEvent() noexcept
{
    // One queued call covers every event until it runs; the flag also keeps the queue (one entry) from
    // ever being full, so the call below never blocks or fails for that reason.
    if (function_ == nullptr || pending_.exchange(true, std::memory_order_acq_rel)) {
        return;
    }
    if (napi_call_threadsafe_function(function_, nullptr, napi_tsfn_nonblocking) != napi_ok) {
        pending_.store(false, std::memory_order_release);
    }
}

void TransportEventRelay::Release() noexcept
{
    if (function_ != nullptr) {
        napi_release_threadsafe_function(function_, napi_tsfn_release);
        function_ = nullptr;
    }
}

void TransportEventRelay::CallJs(napi_env env, napi_value callback, void* context, void* /*data*/)
{
    auto* relay = static_cast<TransportEventRelay*>(context);
    if (env == nullptr || callback == nullptr) {
        return; // the environment is going away: nobody to tell
    }
    // Cleared first: an event during the callback queues the next call.
    relay->pending_.store(false, std::memory_order_release);
    napi_value global = nullptr;
    napi_value result = nullptr;
    if (napi_get_global(env, &global) == napi_ok) {
        // An exception thrown by the callback is left pending: Node reports it as uncaught, as for any
        // callback (the SDK's own catches its errors).
        napi_call_function(env, global, callback, 0, nullptr, &result);
    }
}

} // namespace sdkpp::addon
