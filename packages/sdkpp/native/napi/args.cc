#include "napi/args.h"

#include <string>

#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

std::string Describe(const Napi::Value& value)
{
    switch (value.Type()) {
    case napi_undefined:
        return "undefined";
    case napi_null:
        return "null";
    case napi_string:
        return "a string";
    case napi_number:
        return "a number";
    case napi_object:
        if (value.IsTypedArray()) {
            return "a typed array other than Uint8Array";
        }
        return value.IsArray() ? "an array" : "an object";
    default:
        return "a value of another type";
    }
}

// Echoes a caller's string into a message, cut short so that a huge argument cannot flood a log.
std::string Quote(const std::string& text)
{
    constexpr size_t kMaxEcho = 40;
    return "'" + (text.size() <= kMaxEcho ? text : text.substr(0, kMaxEcho) + "...") + "'";
}

} // namespace

ByteView BytesArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const Napi::Value value = info[index];
    // One query answers all three questions (a typed array? of bytes? where and how long?): this runs for
    // every frame, and the node-addon-api wrappers would ask the engine three times. Anything but a typed
    // array makes the query fail without an exception pending.
    napi_typedarray_type type = napi_int8_array;
    size_t length = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(info.Env(), value, &type, &length, &data, nullptr, nullptr) != napi_ok ||
        type != napi_uint8_array) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" argument must be a Buffer or Uint8Array, got " +
                     Describe(value));
    }
    return {static_cast<const uint8_t*>(data), length};
}

crypto::AeadAlgorithm AeadAlgorithmArg(const Napi::CallbackInfo& info, size_t index)
{
    const Napi::Value value = info[index];
    if (!value.IsString()) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"algorithm\" argument must be a string, got " + Describe(value));
    }
    const std::string name = value.As<Napi::String>().Utf8Value();
    crypto::AeadAlgorithm algorithm{};
    if (!crypto::ParseAeadAlgorithm(name, &algorithm) || !crypto::IsAeadAlgorithmSupported(algorithm)) {
        ThrowError(
          info.Env(), ErrorKind::kTypeError, AeadErrorCode(crypto::AeadResult::kUnsupportedAlgorithm),
          "Unsupported AEAD algorithm " + Quote(name) + "; this build supports " + SupportedAeadNames());
    }
    return algorithm;
}

} // namespace sdkpp::addon
