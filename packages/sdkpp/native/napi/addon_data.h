#pragma once

#include <napi.h>

namespace sdkpp::addon {

// The addon's instance data, one per environment (the main thread and each worker): the constructors
// that let a method tell that its argument is one of this addon's objects.
struct AddonData {
    Napi::FunctionReference systemAudio;
    Napi::FunctionReference processingLink;
    Napi::FunctionReference virtualAudio;
};

// This environment's data, created on first use (the environment owns and deletes it).
AddonData& DataOf(Napi::Env env);

// The wrapped object of class `T` behind `value`, or null when it is not one of `constructor`'s.
template <typename T>
T* UnwrapIf(const Napi::Value& value, const Napi::FunctionReference& constructor)
{
    if (constructor.IsEmpty() || !value.IsObject() || !value.As<Napi::Object>().InstanceOf(constructor.Value())) {
        return nullptr;
    }
    return T::Unwrap(value.As<Napi::Object>());
}

} // namespace sdkpp::addon
