#pragma once

#include <napi.h>

#include <memory>

#include "core/rtp/transport_cryptor.h"

namespace sdkpp::addon {

// `new TransportCryptor(mode, key)`: one connection's transport encryption (core/rtp), holding its key
// schedule and nonce counter. seal/open work on caller-provided Buffers and return numbers, so a batch
// of packets allocates nothing on the native side; src/media/addon/types.ts documents the JS shape.
class TransportCryptorWrap final : public Napi::ObjectWrap<TransportCryptorWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit TransportCryptorWrap(const Napi::CallbackInfo& info);

private:
    // seal(header, extensionBody, payload, out, nonce?) -> bytes written, or -code
    Napi::Value Seal(const Napi::CallbackInfo& info);
    // open(packet, out, info) -> 0, or -code; fills info (rtp_args.h) on success
    Napi::Value Open(const Napi::CallbackInfo& info);
    // stats() -> {sealed, lastNonce, results: number[] indexed by result code}
    Napi::Value Stats(const Napi::CallbackInfo& info);

    std::unique_ptr<rtp::TransportCryptor> cryptor_;
};

} // namespace sdkpp::addon
