#include "napi/audio_args.h"

#include <cmath>
#include <string>

#include "napi/args.h"
#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

template <typename T, napi_typedarray_type kType>
Span<T> TypedArg(const Napi::CallbackInfo& info, size_t index, const char* name, const char* typeName)
{
    const Napi::Value value = info[index];
    if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != kType) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" argument must be " + typeName);
    }
    auto array = value.As<Napi::TypedArrayOf<T>>();
    return {array.Data(), array.ElementLength()};
}

} // namespace

Span<int16_t> Int16Arg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    return TypedArg<int16_t, napi_int16_array>(info, index, name, "an Int16Array");
}

Span<uint32_t> Uint32Arg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    return TypedArg<uint32_t, napi_uint32_array>(info, index, name, "a Uint32Array");
}

MutableByteView MutableBytesArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const ByteView view = BytesArg(info, index, name);
    // BytesArg accepted a Uint8Array, whose memory is writable.
    return {const_cast<uint8_t*>(view.data()), view.size()};
}

double NumberArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const Napi::Value value = info[index];
    if (!value.IsNumber() || !std::isfinite(value.As<Napi::Number>().DoubleValue())) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" argument must be a finite number");
    }
    return value.As<Napi::Number>().DoubleValue();
}

bool BoolArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const Napi::Value value = info[index];
    if (!value.IsBoolean()) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" argument must be a boolean");
    }
    return value.As<Napi::Boolean>().Value();
}

} // namespace sdkpp::addon
