#include "napi/dave_wrap.h"

#include <string>

#include "napi/args.h"
#include "napi/errors.h"
#include "napi/reports.h"

namespace sdkpp::addon {
namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;

MutableByteView WritableBytesArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const ByteView view = BytesArg(info, index, name);
    // BytesArg accepted a Uint8Array, whose memory is writable.
    return {const_cast<uint8_t*>(view.data()), view.size()};
}

ByteView BaseSecretArg(const Napi::CallbackInfo& info, size_t index)
{
    const ByteView key = BytesArg(info, index, "baseSecret");
    if (key.size() != dave::kBaseSecretSize) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_DAVE_INVALID_KEY_SIZE",
                   "A DAVE sender key is 16 bytes, got " + std::to_string(key.size()));
    }
    return key;
}

double NumberArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    if (!info[index].IsNumber()) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" argument must be a number");
    }
    return info[index].As<Napi::Number>().DoubleValue();
}

int64_t MillisecondsArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const double value = NumberArg(info, index, name);
    if (!(value >= -kMaxSafeInteger && value <= kMaxSafeInteger)) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_OUT_OF_RANGE",
                   std::string("The \"") + name + "\" argument must be a finite number of milliseconds");
    }
    return static_cast<int64_t>(value);
}

// A frame result as a number: see DaveEncryptorWrap in the header.
Napi::Value FrameResult(Napi::Env env, dave::Result result, size_t written)
{
    if (result == dave::Result::kOk) {
        return Napi::Number::New(env, static_cast<double>(written));
    }
    return Napi::Number::New(env, -static_cast<double>(result));
}

Napi::Array ResultCounts(Napi::Env env, const dave::FrameCounters& counters)
{
    return ResultCountArray<dave::Result>(env, dave::kResultCount, counters);
}

// At most kMaxRanges offset/size pairs from a Uint32Array; anything else is refused as the frame would be.
bool RangesArg(const Napi::CallbackInfo& info,
               size_t index,
               dave::Range (&ranges)[dave::kMaxRanges],
               size_t* count)
{
    *count = 0;
    const Napi::Value value = info[index];
    if (value.IsUndefined()) {
        return true;
    }
    if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"clearRanges\" argument must be a Uint32Array of offset/size pairs");
    }
    const auto pairs = value.As<Napi::Uint32Array>();
    const size_t length = pairs.ElementLength();
    if (length % 2 != 0 || length / 2 > dave::kMaxRanges) {
        return false;
    }
    for (size_t i = 0; i < length / 2; ++i) {
        ranges[i].offset = pairs[2 * i];
        ranges[i].size = pairs[2 * i + 1];
    }
    *count = length / 2;
    return true;
}

// Makes `method` (whose data is the C++ object of `instance`) an own, read-only property of `instance`.
// Per frame this spares the wrapper lookup a prototype method needs (napi_unwrap: a private property read
// that cost about as much as the AES-GCM of a frame). The function holds its instance under a symbol no one
// else has, so the instance, and with it the data pointer, lives at least as long as the function.
void BindToInstance(const Napi::Object& instance, const char* name, const Napi::Function& method)
{
    const Napi::Env env = instance.Env();
    const napi_property_descriptor owner = {
      nullptr, Napi::Symbol::New(env, "instance"), nullptr, nullptr, nullptr, instance, napi_default, nullptr};
    const napi_property_descriptor bound = {name, nullptr, nullptr, nullptr, nullptr, method, napi_default, nullptr};
    if (napi_define_properties(env, method, 1, &owner) != napi_ok ||
        napi_define_properties(env, instance, 1, &bound) != napi_ok) {
        throw Napi::Error::New(env);
    }
}

} // namespace

Napi::Function DaveEncryptorWrap::Define(Napi::Env env)
{
    return DefineClass(env, "DaveEncryptor",
                       {
                         InstanceMethod<&DaveEncryptorWrap::SetKeyRatchet>("setKeyRatchet"),
                         InstanceMethod<&DaveEncryptorWrap::SetPassthroughMode>("setPassthroughMode"),
                         InstanceMethod<&DaveEncryptorWrap::SetNextNonce>("setNextNonce"),
                         InstanceMethod<&DaveEncryptorWrap::Stats>("stats"),
                       });
}

DaveEncryptorWrap::DaveEncryptorWrap(const Napi::CallbackInfo& info)
  : Napi::ObjectWrap<DaveEncryptorWrap>(info), encryptor_(dave::Encryptor::Create())
{
    if (!encryptor_) {
        ThrowError(info.Env(), ErrorKind::kError, "ERR_DAVE_BACKEND", "Could not create the DAVE encryptor");
    }
    BindToInstance(info.This().As<Napi::Object>(), "encrypt",
                   Napi::Function::New<&DaveEncryptorWrap::EncryptBound>(info.Env(), "encrypt", this));
}

Napi::Value DaveEncryptorWrap::EncryptBound(const Napi::CallbackInfo& info)
{
    return static_cast<DaveEncryptorWrap*>(info.Data())->Encrypt(info);
}

Napi::Value DaveEncryptorWrap::SetKeyRatchet(const Napi::CallbackInfo& info)
{
    encryptor_->SetKeyRatchet(BaseSecretArg(info, 0));
    return info.Env().Undefined();
}

Napi::Value DaveEncryptorWrap::SetPassthroughMode(const Napi::CallbackInfo& info)
{
    encryptor_->SetPassthroughMode(info[0].ToBoolean().Value());
    return info.Env().Undefined();
}

Napi::Value DaveEncryptorWrap::SetNextNonce(const Napi::CallbackInfo& info)
{
    const double nonce = NumberArg(info, 0, "nonce");
    if (!(nonce >= 0 && nonce <= kMaxSafeInteger) ||
        nonce != static_cast<double>(static_cast<uint64_t>(nonce))) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_OUT_OF_RANGE",
                   "The \"nonce\" argument must be a safe non-negative integer");
    }
    encryptor_->SetNextNonce(static_cast<uint64_t>(nonce));
    return info.Env().Undefined();
}

Napi::Value DaveEncryptorWrap::Encrypt(const Napi::CallbackInfo& info)
{
    const ByteView frame = BytesArg(info, 0, "frame");
    const MutableByteView out = WritableBytesArg(info, 1, "out");
    dave::Range ranges[dave::kMaxRanges];
    size_t count = 0;
    if (!RangesArg(info, 2, ranges, &count)) {
        // A list the core cannot even hold: hand it one impossible range instead, so that the refusal is
        // counted there (kBadRanges) like any other.
        ranges[0] = dave::Range{SIZE_MAX, 1};
        count = 1;
    }
    size_t written = 0;
    const dave::Result result =
      encryptor_->Encrypt(frame, Span<const dave::Range>{ranges, count}, out, &written);
    return FrameResult(info.Env(), result, written);
}

Napi::Value DaveEncryptorWrap::Stats(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    auto stats = Napi::Object::New(env);
    stats.Set("lastNonce", static_cast<double>(encryptor_->LastNonce()));
    stats.Set("results", ResultCounts(env, encryptor_->Counters()));
    return stats;
}

void CallerClock::Use(const Napi::Value& value)
{
    manual_ = value.IsNumber();
    if (manual_) {
        const double now = value.As<Napi::Number>().DoubleValue();
        now_ = now >= -kMaxSafeInteger && now <= kMaxSafeInteger ? static_cast<int64_t>(now) : 0;
    }
}

Napi::Function DaveDecryptorWrap::Define(Napi::Env env)
{
    return DefineClass(env, "DaveDecryptor",
                       {
                         InstanceMethod<&DaveDecryptorWrap::TransitionToKeyRatchet>("transitionToKeyRatchet"),
                         InstanceMethod<&DaveDecryptorWrap::TransitionToPassthroughMode>(
                           "transitionToPassthroughMode"),
                         InstanceMethod<&DaveDecryptorWrap::Stats>("stats"),
                       });
}

DaveDecryptorWrap::DaveDecryptorWrap(const Napi::CallbackInfo& info)
  : Napi::ObjectWrap<DaveDecryptorWrap>(info),
    decryptor_(dave::Decryptor::Create(&clock_, info[0].ToBoolean().Value()))
{
    if (!decryptor_) {
        ThrowError(info.Env(), ErrorKind::kError, "ERR_DAVE_BACKEND", "Could not create the DAVE decryptor");
    }
    BindToInstance(info.This().As<Napi::Object>(), "decrypt",
                   Napi::Function::New<&DaveDecryptorWrap::DecryptBound>(info.Env(), "decrypt", this));
}

Napi::Value DaveDecryptorWrap::DecryptBound(const Napi::CallbackInfo& info)
{
    return static_cast<DaveDecryptorWrap*>(info.Data())->Decrypt(info);
}

Napi::Value DaveDecryptorWrap::TransitionToKeyRatchet(const Napi::CallbackInfo& info)
{
    const ByteView key = BaseSecretArg(info, 0);
    const int64_t retention = MillisecondsArg(info, 1, "retentionMs");
    clock_.Use(info[2]);
    decryptor_->TransitionToKeyRatchet(key, retention);
    return info.Env().Undefined();
}

Napi::Value DaveDecryptorWrap::TransitionToPassthroughMode(const Napi::CallbackInfo& info)
{
    const bool enabled = info[0].ToBoolean().Value();
    const int64_t retention = MillisecondsArg(info, 1, "retentionMs");
    clock_.Use(info[2]);
    decryptor_->TransitionToPassthroughMode(enabled, retention);
    return info.Env().Undefined();
}

Napi::Value DaveDecryptorWrap::Decrypt(const Napi::CallbackInfo& info)
{
    const ByteView frame = BytesArg(info, 0, "frame");
    const MutableByteView out = WritableBytesArg(info, 1, "out");
    clock_.Use(info[2]);
    size_t written = 0;
    const dave::Result result = decryptor_->Decrypt(frame, out, &written);
    return FrameResult(info.Env(), result, written);
}

Napi::Value DaveDecryptorWrap::Stats(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    auto stats = Napi::Object::New(env);
    stats.Set("results", ResultCounts(env, decryptor_->Counters()));
    return stats;
}

} // namespace sdkpp::addon
