#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <napi.h>

namespace sdkpp::addon {

// The names of a result enum's values 0..count-1, in order, as the JS side indexes them.
template <typename Result, typename NameOf>
Napi::Array ResultNameArray(Napi::Env env, size_t count, NameOf nameOf)
{
    auto names = Napi::Array::New(env, count);
    for (uint32_t i = 0; i < count; ++i) {
        const std::string_view name = nameOf(static_cast<Result>(i));
        names.Set(i, Napi::String::New(env, name.data(), name.size()));
    }
    return names;
}

// A ResultCounters as an array indexed by result value.
template <typename Result, typename Counters>
Napi::Array ResultCountArray(Napi::Env env, size_t count, const Counters& counters)
{
    auto counts = Napi::Array::New(env, count);
    for (uint32_t i = 0; i < count; ++i) {
        counts.Set(i, static_cast<double>(counters.Get(static_cast<Result>(i))));
    }
    return counts;
}

// A self-test report of the shape {checks[], count, Ok()} as `{ok, checks: [{name, ok}]}`; callers add
// their report's own fields.
template <typename Report>
Napi::Object SelfTestObject(Napi::Env env, const Report& report)
{
    auto checks = Napi::Array::New(env, report.count);
    for (size_t i = 0; i < report.count; ++i) {
        auto item = Napi::Object::New(env);
        const std::string_view name = report.checks[i].name;
        item.Set("name", Napi::String::New(env, name.data(), name.size()));
        item.Set("ok", report.checks[i].ok);
        checks.Set(static_cast<uint32_t>(i), item);
    }
    auto result = Napi::Object::New(env);
    result.Set("ok", report.Ok());
    result.Set("checks", checks);
    return result;
}

} // namespace sdkpp::addon
