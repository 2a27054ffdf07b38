#pragma once

#include <napi.h>

#include <memory>

#include "core/clock.h"
#include "core/dave/decryptor.h"
#include "core/dave/encryptor.h"

namespace sdkpp::addon {

// `new DaveEncryptor()`: the local user's DAVE frame encryption (core/dave). encrypt() writes into a
// caller Buffer and returns a number, so a frame costs no allocation on the native side:
//   >= 0: kOk, the bytes written; -1: kPassthrough, the frame copied (its own length); < -1: -code.
class DaveEncryptorWrap final : public Napi::ObjectWrap<DaveEncryptorWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit DaveEncryptorWrap(const Napi::CallbackInfo& info);

private:
    // setKeyRatchet(baseSecret) -> undefined; ERR_DAVE_INVALID_KEY_SIZE unless 16 bytes
    Napi::Value SetKeyRatchet(const Napi::CallbackInfo& info);
    // setPassthroughMode(enabled)
    Napi::Value SetPassthroughMode(const Napi::CallbackInfo& info);
    // setNextNonce(nonce), a safe integer
    Napi::Value SetNextNonce(const Napi::CallbackInfo& info);
    // encrypt(frame, out, clearRanges?: Uint32Array of offset/size pairs) -> see above. An own property of
    // each instance, bound to it (BindToInstance in dave_wrap.cc).
    Napi::Value Encrypt(const Napi::CallbackInfo& info);
    static Napi::Value EncryptBound(const Napi::CallbackInfo& info);
    // stats() -> {lastNonce, results: number[] indexed by dave::Result}
    Napi::Value Stats(const Napi::CallbackInfo& info);

    std::unique_ptr<dave::Encryptor> encryptor_;
};

// The decryptor's clock: the steady clock, unless the JS caller passes the time with each call (an
// injected clock on the JS side, in tests or in a host with its own time base).
class CallerClock final : public IClock {
public:
    int64_t NowMs() const noexcept override { return manual_ ? now_ : steady_.NowMs(); }
    void Use(const Napi::Value& value);

private:
    SteadyClock steady_;
    bool manual_ = false;
    int64_t now_ = 0;
};

// `new DaveDecryptor(passthrough)`: one remote sender's DAVE frame decryption. decrypt() returns numbers
// as DaveEncryptor.encrypt() does.
class DaveDecryptorWrap final : public Napi::ObjectWrap<DaveDecryptorWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit DaveDecryptorWrap(const Napi::CallbackInfo& info);

private:
    // transitionToKeyRatchet(baseSecret, retentionMs, nowMs?)
    Napi::Value TransitionToKeyRatchet(const Napi::CallbackInfo& info);
    // transitionToPassthroughMode(enabled, retentionMs, nowMs?)
    Napi::Value TransitionToPassthroughMode(const Napi::CallbackInfo& info);
    // decrypt(frame, out, nowMs?) -> number; bound to its instance as encrypt is.
    Napi::Value Decrypt(const Napi::CallbackInfo& info);
    static Napi::Value DecryptBound(const Napi::CallbackInfo& info);
    // stats() -> {results: number[]}
    Napi::Value Stats(const Napi::CallbackInfo& info);

    CallerClock clock_;
    std::unique_ptr<dave::Decryptor> decryptor_;
};

} // namespace sdkpp::addon
