#include "napi/processing_link_wrap.h"

#include <chrono>
#include <mutex>
#include <unordered_map>

#include "napi/addon_data.h"
#include "napi/audio_args.h"
#include "napi/errors.h"
#include "napi/system_audio_wrap.h"

namespace sdkpp::addon {
namespace {

// The longest a readCapture may block its thread.
constexpr double kMaxWaitMs = 100;

// Links by id, across environments: the main thread makes one, a worker opens it. Entries are weak, so a
// link lives exactly as long as someone holds it.
struct Registry {
    std::mutex mutex;
    std::unordered_map<uint32_t, std::weak_ptr<devices::ProcessingLink>> links;
    uint32_t next = 1;
};

Registry& TheRegistry()
{
    // Never destroyed: a worker's environment may tear down after static destructors have run.
    static Registry* registry = new Registry();
    return *registry;
}

uint32_t Register(const std::shared_ptr<devices::ProcessingLink>& link)
{
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    for (auto it = registry.links.begin(); it != registry.links.end();) {
        it = it->second.expired() ? registry.links.erase(it) : std::next(it);
    }
    const uint32_t id = registry.next++;
    registry.links.emplace(id, link);
    return id;
}

std::shared_ptr<devices::ProcessingLink> Find(uint32_t id)
{
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    const auto found = registry.links.find(id);
    return found == registry.links.end() ? nullptr : found->second.lock();
}

} // namespace

Napi::Function ProcessingLinkWrap::Define(Napi::Env env)
{
    Napi::Function function = DefineClass(env, "VoiceProcessingLink",
                       {
                         InstanceMethod<&ProcessingLinkWrap::Id>("id"),
                         InstanceMethod<&ProcessingLinkWrap::ReadCapture>("readCapture"),
                         InstanceMethod<&ProcessingLinkWrap::ReadRender>("readRender"),
                         InstanceMethod<&ProcessingLinkWrap::WriteProcessed>("writeProcessed"),
                         InstanceMethod<&ProcessingLinkWrap::Stats>("stats"),
                         InstanceMethod<&ProcessingLinkWrap::Dispose>("dispose"),
                       });
    DataOf(env).processingLink = Napi::Persistent(function);
    return function;
}

ProcessingLinkWrap* ProcessingLinkWrap::From(const Napi::Value& value)
{
    return UnwrapIf<ProcessingLinkWrap>(value, DataOf(value.Env()).processingLink);
}

ProcessingLinkWrap::ProcessingLinkWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ProcessingLinkWrap>(info)
{
    const Napi::Env env = info.Env();
    if (info[0].IsNumber()) {
        const double id = info[0].As<Napi::Number>().DoubleValue();
        if (id >= 1 && id <= 4294967295.0 && id == static_cast<double>(static_cast<uint32_t>(id))) {
            link_ = Find(static_cast<uint32_t>(id));
        }
        if (!link_) {
            ThrowError(env, ErrorKind::kError, "ERR_PROCESSING_LINK_NOT_FOUND",
                       "no voice processing link has that id (it was disposed, or never made)");
        }
        id_ = static_cast<uint32_t>(id);
        return;
    }
    SystemAudioWrap* system = SystemAudioWrap::From(info[0]);
    if (system == nullptr) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"systemAudio\" argument must be a SystemAudio or a link's id");
    }
    std::shared_ptr<devices::SystemAudio> devices = system->Shared();
    if (!devices) ThrowError(env, ErrorKind::kError, "ERR_SYSTEM_AUDIO_DISPOSED", "the system audio was disposed");
    link_ = std::make_shared<devices::ProcessingLink>(std::move(devices));
    id_ = Register(link_);
}

devices::ProcessingLink& ProcessingLinkWrap::Live(const Napi::Env& env)
{
    if (!link_) ThrowError(env, ErrorKind::kError, "ERR_PROCESSING_LINK_DISPOSED", "the processing link was disposed");
    return *link_;
}

Napi::Value ProcessingLinkWrap::Id(const Napi::CallbackInfo& info)
{
    return Napi::Number::New(info.Env(), id_);
}

Napi::Value ProcessingLinkWrap::ReadCapture(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    const double waitMs = NumberArg(info, 1, "waitMs");
    if (waitMs < 0 || waitMs > kMaxWaitMs) {
        ThrowError(env, ErrorKind::kRangeError, "ERR_OUT_OF_RANGE", "waitMs must be within 0..100");
    }
    devices::ProcessingLink& link = Live(env);
    return Napi::Boolean::New(
      env, link.ReadCapture(out.data(), out.size(), std::chrono::milliseconds(static_cast<int64_t>(waitMs))));
}

Napi::Value ProcessingLinkWrap::ReadRender(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    return Napi::Boolean::New(env, Live(env).ReadRender(out.data(), out.size()));
}

Napi::Value ProcessingLinkWrap::WriteProcessed(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> in = Int16Arg(info, 0, "pcm");
    return Napi::Number::New(env, static_cast<double>(Live(env).WriteProcessed(in.data(), in.size())));
}

Napi::Value ProcessingLinkWrap::Stats(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const devices::ProcessingStats stats = Live(env).Stats();
    Napi::Object out = Napi::Object::New(env);
    out.Set("captureBlocks", static_cast<double>(stats.captureBlocks));
    out.Set("processedSamples", static_cast<double>(stats.processedSamples));
    out.Set("processedDropped", static_cast<double>(stats.processedDropped));
    out.Set("renderDropped", static_cast<double>(stats.renderDropped));
    return out;
}

Napi::Value ProcessingLinkWrap::Dispose(const Napi::CallbackInfo& info)
{
    link_.reset();
    return info.Env().Undefined();
}

} // namespace sdkpp::addon
