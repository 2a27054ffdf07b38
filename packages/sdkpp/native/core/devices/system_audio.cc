#include "core/devices/system_audio.h"

#if defined(SDKPP_HAVE_MINIAUDIO)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "core/devices/capture_reader.h"
#include "core/devices/miniaudio_config.h"
#include "core/devices/sample_ring.h"
#include "core/transport/thread_priority.h"

namespace sdkpp::devices {
namespace {

// Half a second of stereo each way: the most a stalled reader or writer can leave behind.
constexpr size_t kRingSamples = 65536;
// Output is held back until a cushion is queued, so that a late writer (the JS thread busy) does not starve
// the device. The cushion adapts like a jitter buffer: it starts at 40 ms, grows by 20 ms at each underrun
// up to 120 ms, and shrinks by 20 ms after 10 s without one.
constexpr size_t kFrameSamples = 960 * kChannels;
constexpr size_t kOutputCushionMin = 2 * kFrameSamples;
constexpr size_t kOutputCushionMax = 6 * kFrameSamples;
constexpr size_t kOutputCushionStableFrames = 10 * kSampleRate;
// Output queued beyond the cushion plus this, for a whole second, is latency and is dropped.
constexpr size_t kOutputBacklogSlack = 2 * kFrameSamples;
// The blocks latency is given back in, in a pause (SampleRing::DropQuiet): 5 ms.
constexpr size_t kQuietBlock = kSampleRate / 200 * kChannels;
// ... where 25 ms more of quiet follow (a pause, not a quiet moment inside a word).
constexpr size_t kQuietLookahead = kSampleRate / 40 * kChannels;
constexpr int64_t kWatchPeriodMs = 100;
constexpr int64_t kEnumeratePeriodMs = 500;
// A stream that has run and then gets no callback for this long has lost its device.
constexpr int64_t kStallMs = 750;
// PulseAudio's capture queue in periods (see OpenLocked).
constexpr ma_uint32 kPulseCapturePeriods = 20;
constexpr uint32_t kPeriodMs = kPeriodFrames * 1000 / kSampleRate;
// Two late output callbacks this close together widen the PulseAudio server's buffer (WidenServerBuffer).
constexpr int64_t kWidenWindowMs = 5000;
// A new stream may take a while to start (a PulseAudio null sink takes up to 2 s here).
constexpr int64_t kStartGraceMs = 3000;
constexpr int64_t kRetryMs = 2000;
constexpr size_t kMaxEvents = 64;

int64_t NowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A device id as text: the backend's own string where it has one (PulseAudio and ALSA names, Core Audio
// UIDs, WASAPI endpoint ids), else the number or the GUID's bytes in hex.
std::string IdToString(ma_backend backend, const ma_device_id& id)
{
    auto bounded = [](const char* text, size_t size) { return std::string(text, strnlen(text, size)); };
    switch (backend) {
        case ma_backend_pulseaudio:
            return bounded(id.pulse, sizeof(id.pulse));
        case ma_backend_alsa:
            return bounded(id.alsa, sizeof(id.alsa));
        case ma_backend_coreaudio:
            return bounded(id.coreaudio, sizeof(id.coreaudio));
        case ma_backend_jack:
            return "jack:" + std::to_string(id.jack);
        case ma_backend_winmm:
            return "winmm:" + std::to_string(id.winmm);
        case ma_backend_wasapi: {
            std::string text;
            for (size_t i = 0; i < sizeof(id.wasapi) / sizeof(id.wasapi[0]) && id.wasapi[i] != 0; ++i) {
                const auto unit = static_cast<uint32_t>(id.wasapi[i]);
                text.push_back(unit < 0x80 ? static_cast<char>(unit) : '?');
            }
            return text;
        }
        default: {
            static const char kHex[] = "0123456789abcdef";
            const auto* bytes = reinterpret_cast<const unsigned char*>(&id);
            size_t end = sizeof(id);
            while (end > 0 && bytes[end - 1] == 0) --end;
            std::string text = "id:";
            for (size_t i = 0; i < end; ++i) {
                text.push_back(kHex[bytes[i] >> 4]);
                text.push_back(kHex[bytes[i] & 15]);
            }
            return text;
        }
    }
}

// One direction's stream. The fields the device callback touches are atomics or the ring; the rest belong
// to whoever holds MiniaudioSystem::control_. It lives as long as the MiniaudioSystem, so a callback
// never outlives its user data.
struct Stream {
    explicit Stream(Direction d) : direction(d), ring(kRingSamples) {}

    const Direction direction;
    SampleRing ring;
    std::atomic<uint64_t> callbacks{0};
    std::atomic<uint64_t> dropped{0};
    std::atomic<uint64_t> missing{0};
    // Output: silence played after the first prebuffer (each underrun's, then its new prebuffer's), for
    // SystemAudio::EchoShifted.
    std::atomic<uint64_t> silenced{0};
    std::atomic<uint64_t> underruns{0};
    std::atomic<uint64_t> lateCallbacks{0};
    std::atomic<uint32_t> longestGapMs{0};
    std::atomic<uint8_t> priority{0};
    // A gap between callbacks longer than this is a late callback: two of the device's periods, at least
    // kLateCallbackMs (a backend may call back less often than every period).
    std::atomic<uint32_t> lateAfterMs{kLateCallbackMs};
    std::atomic<int64_t> lastCallbackMs{0};
    // Output on PulseAudio: the server-side buffer asked for (ms), and when late callbacks start to count
    // towards widening it (after the start's bursts).
    std::atomic<uint32_t> serverTargetMs{0};
    std::atomic<int64_t> widenAfterMs{0};
    // Output only, callback thread only: the last late callback after the start (for WidenServerBuffer), the
    // prebuffer reached, and the window of the backlog bound.
    int64_t lastLateMs = 0;
    uint32_t lastLateGapMs = 0;
    bool primed = false;
    bool everPrimed = false;
    bool serverBufferSet = false; // SetServerBuffer's start, asked for on the first callback
    size_t cushion = kOutputCushionMin;
    size_t stableFrames = 0;
    size_t minBacklog = SIZE_MAX;
    size_t windowFrames = 0;
    size_t pendingTrim = 0;  // latency to give back in the next pause (as CaptureReader's)
    int pendingWindows = 0;  // windows in a row that found latency to give back

    std::unique_ptr<ma_device> device;
    std::string id;
    std::string name;
    bool wanted = false;  // the user asked for it open (a failed fallback keeps retrying)
    int64_t openedMs = 0;
    int64_t retryAtMs = 0;
    uint32_t reopened = 0;
};

// The PulseAudio output's server-side buffer (see SetServerBuffer): two periods from the first callback,
// widened after late callbacks to cover the gap seen, up to the most.
constexpr uint32_t kServerTargetStartMs = 2 * kPeriodMs;
#if defined(MA_SUPPORT_PULSEAUDIO)
constexpr uint32_t kServerTargetMaxMs = 250;

// PulseAudio's pa_buffer_attr (five uint32 in this order, its stable ABI), which miniaudio's header does not
// declare, and the two functions miniaudio already loaded that SetServerBuffer calls.
struct PulseBufferAttr {
    uint32_t maxlength;
    uint32_t tlength;
    uint32_t prebuf;
    uint32_t minreq;
    uint32_t fragsize;
};
using PulseSetBufferAttr = void* (*)(void* stream, const PulseBufferAttr* attr, void* callback, void* userdata);
using PulseOperationUnref = void (*)(void* operation);
#endif

// miniaudio asks PulseAudio for an output buffer of one period (10 ms: its target length is the period). The
// server then asks for more only when that is all gone, so any delay of this device's thread or of the
// server's own, however short, is an underrun in the server: silence the listener hears, after which the
// rest of the sentence plays that much later. On a quiet two-core machine that was 1-4 late callbacks per
// 25 s, and 4 sentences out of 4 slipped (bench/systemAudio.ts's sentence: 0.888-0.950 correlation, one
// stream widened to 50 ms mid-sentence); with two periods, 10 sentences had 0-1 (0.943-0.958) and the echo
// canceller of test/integration/systemAudioProcessing.test.ts kept its reference in step (a fixed 40 ms had
// halved its 20 dB while the speaker's ring shifted the echo unseen; see ProcessingLink::ReadRender). So the
// buffer starts at two periods, 10 ms more than miniaudio's, from the first callback. Under load the device
// may still not be served in time: a second late callback within 5 s (after the start's bursts) widens it
// to cover the longer gap of the two plus a period, up to kServerTargetMaxMs, and it stays there for the
// stream's life (a machine that stalled once tends to again). Callbacks still come every 10 ms (minreq is
// one period), so only the server's queue grows, not the steps in which it is fed. Called on the PulseAudio
// loop's thread, the one thread where its stream may be touched.
void SetServerBuffer(ma_device* device, Stream* stream, uint32_t wantedMs)
{
#if defined(MA_SUPPORT_PULSEAUDIO)
    if (device->pContext->backend != ma_backend_pulseaudio) return;
    const uint32_t current = stream->serverTargetMs.load(std::memory_order_relaxed);
    const uint32_t wanted = std::min(kServerTargetMaxMs, wantedMs);
    if (wanted <= current) return;
    auto set = reinterpret_cast<PulseSetBufferAttr>(device->pContext->pulse.pa_stream_set_buffer_attr);
    auto unref = reinterpret_cast<PulseOperationUnref>(device->pContext->pulse.pa_operation_unref);
    void* pulseStream = device->pulse.pStreamPlayback;
    if (set == nullptr || unref == nullptr || pulseStream == nullptr) return;
    constexpr uint32_t kBytesPerMs = kSampleRate / 1000 * kChannels * sizeof(int16_t);
    // prebuf is one period, not the server's default (the whole target): after an underrun the stream plays
    // again as soon as a period is queued, instead of staying silent until the widened buffer is full (a
    // stall of 200 ms then cost 400 ms of silence).
    const uint32_t period = kPeriodMs * kBytesPerMs;
    const PulseBufferAttr attr{UINT32_MAX, wanted * kBytesPerMs, period, period, UINT32_MAX};
    void* operation = set(pulseStream, &attr, nullptr, nullptr);
    if (operation == nullptr) return;
    unref(operation);
    stream->serverTargetMs.store(wanted, std::memory_order_relaxed);
#else
    (void)device;
    (void)stream;
    (void)wantedMs;
#endif
}

// See SetServerBuffer: the longer of two late callbacks' gaps, plus a period, in whole periods.
void WidenServerBuffer(ma_device* device, Stream* stream, uint32_t gapMs)
{
    SetServerBuffer(device, stream, (gapMs + kPeriodMs + kPeriodMs - 1) / kPeriodMs * kPeriodMs);
}

void OnData(ma_device* device, void* output, const void* input, ma_uint32 frames)
{
    auto* stream = static_cast<Stream*>(device->pUserData);
    // The thread that calls back is the backend's (miniaudio's own loop for PulseAudio and ALSA, the
    // system's for WASAPI and Core Audio). miniaudio's thread-priority option does nothing for a normal
    // Linux thread, so on a busy machine that loop waited behind every other runnable thread: device
    // callbacks 0.1 to 1.3 s apart, each gap a hole in the sound server's 10 ms buffer. It asks once for
    // what the transport thread gets (real-time where permitted, else nice -10, else a short slice).
    thread_local int raised = -1;
    if (raised < 0) raised = static_cast<int>(transport::RaiseThreadPriority());
    stream->priority.store(static_cast<uint8_t>(raised), std::memory_order_relaxed);
    const size_t count = static_cast<size_t>(frames) * kChannels;
    stream->callbacks.fetch_add(1, std::memory_order_relaxed);
    const int64_t now = NowMs();
    const int64_t previous = stream->lastCallbackMs.exchange(now, std::memory_order_relaxed);
    if (previous != 0) {
        const auto gap = static_cast<uint32_t>(std::min<int64_t>(now - previous, UINT32_MAX));
        if (gap > stream->lateAfterMs.load(std::memory_order_relaxed)) {
            stream->lateCallbacks.fetch_add(1, std::memory_order_relaxed);
            // Two late callbacks within kWidenWindowMs widen the server's buffer (one alone is a hiccup that
            // every machine has now and then, not worth the latency).
            if (stream->direction == Direction::kOutput &&
                now >= stream->widenAfterMs.load(std::memory_order_relaxed)) {
                if (stream->lastLateMs != 0 && now - stream->lastLateMs <= kWidenWindowMs) {
                    WidenServerBuffer(device, stream, std::max(gap, stream->lastLateGapMs));
                }
                stream->lastLateMs = now;
                stream->lastLateGapMs = gap;
            }
        }
        if (gap > stream->longestGapMs.load(std::memory_order_relaxed)) {
            stream->longestGapMs.store(gap, std::memory_order_relaxed);
        }
    }
    if (stream->direction == Direction::kInput) {
        const size_t written = stream->ring.Write(static_cast<const int16_t*>(input), count);
        if (written < count) stream->dropped.fetch_add(count - written, std::memory_order_relaxed);
        return;
    }
    auto* out = static_cast<int16_t*>(output);
    SampleRing& ring = stream->ring;
    if (!stream->serverBufferSet) {
        SetServerBuffer(device, stream, kServerTargetStartMs);
        stream->serverBufferSet = true;
    }
    if (!stream->primed) {
        if (ring.Available() < stream->cushion) {
            std::memset(out, 0, count * sizeof(int16_t));
            if (stream->everPrimed) stream->silenced.fetch_add(count, std::memory_order_relaxed);
            return;
        }
        stream->primed = true;
        stream->everPrimed = true;
    }
    if (stream->pendingTrim > 0) {
        const size_t quiet = ring.DropQuiet(stream->pendingTrim, count + stream->cushion, kQuietBlock,
                                            kQuietLookahead, CaptureReader::kQuietPeak);
        stream->pendingTrim -= quiet;
        if (quiet > 0) stream->dropped.fetch_add(quiet, std::memory_order_relaxed);
    }
    if (!ring.Read(out, count)) {
        // Starved: play what there is, then silence, and wait for a new prebuffer.
        const size_t have = ring.Available();
        ring.Read(out, have);
        std::memset(out + have, 0, (count - have) * sizeof(int16_t));
        stream->missing.fetch_add(count - have, std::memory_order_relaxed);
        stream->silenced.fetch_add(count - have, std::memory_order_relaxed);
        stream->underruns.fetch_add(1, std::memory_order_relaxed);
        stream->primed = false;
        stream->pendingTrim = 0; // the starved ring has no latency left to give back
        stream->cushion = std::min(stream->cushion + kFrameSamples, kOutputCushionMax);
        stream->stableFrames = 0;
        return;
    }
    stream->stableFrames += frames;
    if (stream->stableFrames >= kOutputCushionStableFrames) {
        stream->cushion = std::max(stream->cushion - kFrameSamples, kOutputCushionMin);
        stream->stableFrames = 0;
    }
    // As on the capture side: only output that stays queued beyond the bound for a whole window is
    // latency (the writer's steps and the device's periods both come in bursts), and it goes in the next
    // pause unless there is none for CaptureReader::kForceWindows windows.
    const size_t backlog = ring.Available();
    stream->minBacklog = std::min(stream->minBacklog, backlog);
    stream->windowFrames += frames;
    if (stream->windowFrames >= kSampleRate) {
        const size_t bound = stream->cushion + kOutputBacklogSlack;
        const size_t excess = stream->minBacklog > bound ? stream->minBacklog - bound : 0;
        stream->pendingWindows = excess > 0 ? stream->pendingWindows + 1 : 0;
        stream->pendingTrim = excess;
        if (stream->pendingWindows >= CaptureReader::kForceWindows) {
            const size_t trimmed = ring.TrimTo(backlog - std::min(backlog, excess));
            if (trimmed > 0) stream->dropped.fetch_add(trimmed, std::memory_order_relaxed);
            stream->pendingTrim = 0;
            stream->pendingWindows = 0;
        }
        stream->windowFrames = 0;
        stream->minBacklog = SIZE_MAX;
    }
}

class MiniaudioSystem final : public SystemAudio {
public:
    MiniaudioSystem() : input_(Direction::kInput), output_(Direction::kOutput) {}

    bool Start(std::string* error)
    {
        ma_context_config config = ma_context_config_init();
        config.pulse.pApplicationName = "sdkpp";
        config.pulse.tryAutoSpawn = MA_FALSE;
        config.threadPriority = ma_thread_priority_highest;
        const ma_result result = ma_context_init(nullptr, 0, &config, &context_);
        if (result != MA_SUCCESS) {
            *error = std::string("no audio backend could start (") + ma_result_description(result) + ")";
            return false;
        }
        contextReady_ = true;
        {
            std::lock_guard<std::mutex> lock(control_);
            EnumerateLocked();
        }
        watcher_ = std::thread([this] { Watch(); });
        return true;
    }

    ~MiniaudioSystem() override
    {
        {
            std::lock_guard<std::mutex> lock(stopMutex_);
            stopping_ = true;
        }
        stopSignal_.notify_all();
        if (watcher_.joinable()) watcher_.join();
        std::lock_guard<std::mutex> lock(control_);
        CloseLocked(input_);
        CloseLocked(output_);
        if (contextReady_) ma_context_uninit(&context_);
    }

    std::string Backend() const override { return ma_get_backend_name(context_.backend); }

    std::vector<DeviceInfo> List(Direction direction) override
    {
        std::lock_guard<std::mutex> lock(control_);
        EnumerateLocked();
        return direction == Direction::kInput ? inputs_ : outputs_;
    }

    bool Open(Direction direction, const std::string& id, std::string* error) override
    {
        std::lock_guard<std::mutex> lock(control_);
        Stream& stream = StreamOf(direction);
        CloseLocked(stream);
        stream.wanted = false;
        stream.reopened = 0;
        if (!OpenLocked(stream, id, error)) return false;
        stream.wanted = true;
        return true;
    }

    void Close(Direction direction) override
    {
        std::lock_guard<std::mutex> lock(control_);
        Stream& stream = StreamOf(direction);
        CloseLocked(stream);
        stream.wanted = false;
    }

    StreamStatus Status(Direction direction) override
    {
        std::lock_guard<std::mutex> lock(control_);
        const Stream& stream = StreamOf(direction);
        StreamStatus status;
        status.open = stream.device != nullptr;
        status.followsDefault = stream.id.empty();
        status.id = stream.id;
        status.name = stream.name;
        status.callbacks = stream.callbacks.load(std::memory_order_relaxed);
        status.droppedSamples = stream.dropped.load(std::memory_order_relaxed);
        status.missingSamples = stream.missing.load(std::memory_order_relaxed);
        status.underruns = stream.underruns.load(std::memory_order_relaxed);
        status.lateCallbacks = stream.lateCallbacks.load(std::memory_order_relaxed);
        status.longestGapMs = stream.longestGapMs.load(std::memory_order_relaxed);
        status.priority = stream.priority.load(std::memory_order_relaxed);
        status.reopened = stream.reopened;
        status.serverBufferMs = stream.serverTargetMs.load(std::memory_order_relaxed);
        return status;
    }

    bool ReadInput(int16_t* out, size_t count, size_t maxBacklog) noexcept override
    {
        return reader_.Read(input_.ring, out, count, maxBacklog, input_.dropped);
    }

    size_t WriteOutput(const int16_t* in, size_t count) noexcept override
    {
        const size_t written = output_.ring.Write(in, count);
        if (written < count) output_.dropped.fetch_add(count - written, std::memory_order_relaxed);
        return written;
    }

    size_t InputAvailable() const noexcept override { return input_.ring.Available(); }
    size_t OutputQueued() const noexcept override { return output_.ring.Available(); }
    EchoShift EchoShifted() const noexcept override
    {
        EchoShift shift;
        shift.skipped =
          output_.dropped.load(std::memory_order_relaxed) + input_.dropped.load(std::memory_order_relaxed);
        shift.inserted = output_.silenced.load(std::memory_order_relaxed);
        return shift;
    }

    std::vector<DeviceEvent> TakeEvents() override
    {
        std::lock_guard<std::mutex> lock(eventsMutex_);
        std::vector<DeviceEvent> taken(events_.begin(), events_.end());
        events_.clear();
        return taken;
    }

private:
    Stream& StreamOf(Direction direction) { return direction == Direction::kInput ? input_ : output_; }

    // Reads both device lists (control_ held: miniaudio's enumeration result is shared state). Returns
    // whether anything differs from the previous enumeration, and reports that as kDevicesChanged here,
    // whoever enumerated (List() too), so no change goes unreported. The first enumeration is no change.
    bool EnumerateLocked()
    {
        ma_device_info* playback = nullptr;
        ma_device_info* capture = nullptr;
        ma_uint32 playbackCount = 0;
        ma_uint32 captureCount = 0;
        if (ma_context_get_devices(&context_, &playback, &playbackCount, &capture, &captureCount) != MA_SUCCESS) {
            return false;
        }
        auto convert = [this](const ma_device_info* infos, ma_uint32 count) {
            std::vector<DeviceInfo> list;
            list.reserve(count);
            for (ma_uint32 i = 0; i < count; ++i) {
                DeviceInfo info;
                info.id = IdToString(context_.backend, infos[i].id);
                info.name = std::string(infos[i].name, strnlen(infos[i].name, sizeof(infos[i].name)));
                info.isDefault = infos[i].isDefault != 0;
                list.push_back(std::move(info));
            }
            return list;
        };
        std::vector<DeviceInfo> inputs = convert(capture, captureCount);
        std::vector<DeviceInfo> outputs = convert(playback, playbackCount);
        auto same = [](const std::vector<DeviceInfo>& a, const std::vector<DeviceInfo>& b) {
            return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const DeviceInfo& x, const DeviceInfo& y) {
                return x.id == y.id && x.name == y.name && x.isDefault == y.isDefault;
            });
        };
        const bool changed = enumerated_ && (!same(inputs, inputs_) || !same(outputs, outputs_));
        inputs_ = std::move(inputs);
        outputs_ = std::move(outputs);
        enumerated_ = true;
        if (changed) Emit(DeviceEvent{});
        return changed;
    }

    // Finds the backend's id for `id` in a fresh enumeration.
    bool LookUpLocked(Direction direction, const std::string& id, ma_device_id* found)
    {
        ma_device_info* playback = nullptr;
        ma_device_info* capture = nullptr;
        ma_uint32 playbackCount = 0;
        ma_uint32 captureCount = 0;
        if (ma_context_get_devices(&context_, &playback, &playbackCount, &capture, &captureCount) != MA_SUCCESS) {
            return false;
        }
        const ma_device_info* infos = direction == Direction::kInput ? capture : playback;
        const ma_uint32 count = direction == Direction::kInput ? captureCount : playbackCount;
        for (ma_uint32 i = 0; i < count; ++i) {
            if (IdToString(context_.backend, infos[i].id) == id) {
                *found = infos[i].id;
                return true;
            }
        }
        return false;
    }

    bool OpenLocked(Stream& stream, const std::string& id, std::string* error)
    {
        ma_device_id deviceId{};
        if (!id.empty() && !LookUpLocked(stream.direction, id, &deviceId)) {
            *error = "no such audio " + std::string(stream.direction == Direction::kInput ? "input" : "output") +
                     " device: " + id;
            return false;
        }
        const bool capture = stream.direction == Direction::kInput;
        ma_device_config config = ma_device_config_init(capture ? ma_device_type_capture : ma_device_type_playback);
        if (capture) {
            config.capture.pDeviceID = id.empty() ? nullptr : &deviceId;
            config.capture.format = ma_format_s16;
            config.capture.channels = kChannels;
        } else {
            config.playback.pDeviceID = id.empty() ? nullptr : &deviceId;
            config.playback.format = ma_format_s16;
            config.playback.channels = kChannels;
        }
        config.sampleRate = kSampleRate;
        config.periodSizeInFrames = kPeriodFrames;
        config.periods = 3;
        if (capture && context_.backend == ma_backend_pulseaudio) {
            // miniaudio asks PulseAudio for a capture queue of all periods: 30 ms, which a 30 ms delay of
            // this device's thread on a busy machine overflows (the server drops what does not fit). It
            // holds 200 ms instead; capture is still delivered every 10 ms, so this adds no latency.
            // Playback starts at two periods in the server and widens when it must (SetServerBuffer).
            config.periods = kPulseCapturePeriods;
        }
        config.performanceProfile = ma_performance_profile_low_latency;
        config.dataCallback = OnData;
        config.pUserData = &stream;
        auto device = std::make_unique<ma_device>();
        ma_result result = ma_device_init(&context_, &config, device.get());
        if (result != MA_SUCCESS) {
            *error = std::string("the device did not open (") + ma_result_description(result) + ")";
            return false;
        }
        // The new device starts unprimed (its callback has not run yet). Stale capture samples are left to
        // the reader, whose backlog bound drops them: only it may take from the ring.
        stream.primed = false;
        stream.lastCallbackMs.store(0, std::memory_order_relaxed);
        stream.callbacks.store(0, std::memory_order_relaxed);
        stream.lateCallbacks.store(0, std::memory_order_relaxed);
        stream.longestGapMs.store(0, std::memory_order_relaxed);
        const ma_uint32 periodFrames =
          capture ? device->capture.internalPeriodSizeInFrames : device->playback.internalPeriodSizeInFrames;
        const ma_uint32 periodRate = capture ? device->capture.internalSampleRate : device->playback.internalSampleRate;
        const uint32_t periodMs = periodRate > 0 ? static_cast<uint32_t>(periodFrames * 1000ULL / periodRate) : 0;
        stream.lateAfterMs.store(std::max(kLateCallbackMs, 2 * periodMs), std::memory_order_relaxed);
        const bool pulseOutput = !capture && context_.backend == ma_backend_pulseaudio;
        stream.serverTargetMs.store(pulseOutput ? kPeriodMs : 0, std::memory_order_relaxed);
        stream.widenAfterMs.store(NowMs() + kStartGraceMs, std::memory_order_relaxed);
        stream.lastLateMs = 0;
        stream.lastLateGapMs = 0;
        stream.serverBufferSet = false;
        result = ma_device_start(device.get());
        if (result != MA_SUCCESS) {
            ma_device_uninit(device.get());
            *error = std::string("the device did not start (") + ma_result_description(result) + ")";
            return false;
        }
        char name[MA_MAX_DEVICE_NAME_LENGTH + 1] = {};
        size_t length = 0;
        ma_device_get_name(device.get(), capture ? ma_device_type_capture : ma_device_type_playback, name,
                           sizeof(name), &length);
        stream.name.assign(name, std::min(length, sizeof(name) - 1));
        stream.id = id;
        stream.device = std::move(device);
        stream.openedMs = NowMs();
        return true;
    }

    void CloseLocked(Stream& stream)
    {
        if (!stream.device) return;
        // Stop first: ma_device_uninit alone does not wake a backend loop that waits for its device, and
        // the device of a removed or stalled stream never will (PulseAudio's loop then blocks for good).
        // ma_device_stop wakes it.
        ma_device_stop(stream.device.get());
        ma_device_uninit(stream.device.get());
        stream.device.reset();
        stream.name.clear();
    }

    void Emit(DeviceEvent event)
    {
        std::lock_guard<std::mutex> lock(eventsMutex_);
        if (events_.size() >= kMaxEvents) events_.pop_front();
        events_.push_back(std::move(event));
    }

    // The watcher's check of one stream: a chosen device gone from the list, or a stream that stopped
    // getting callbacks, is replaced by the default device.
    void CheckLocked(Stream& stream, int64_t now, bool listChanged)
    {
        if (!stream.wanted) return;
        if (!stream.device) {
            // A failed fallback: try again when the devices change or every kRetryMs.
            if (!listChanged && now < stream.retryAtMs) return;
            std::string error;
            if (OpenLocked(stream, "", &error)) {
                ++stream.reopened;
                DeviceEvent event;
                event.kind = DeviceEvent::Kind::kDeviceLost;
                event.direction = stream.direction;
                event.reason = "recovered";
                event.fallbackOpened = true;
                event.fallbackName = stream.name;
                Emit(std::move(event));
            } else {
                stream.retryAtMs = now + kRetryMs;
            }
            return;
        }
        const std::vector<DeviceInfo>& list = stream.direction == Direction::kInput ? inputs_ : outputs_;
        const bool removed = !stream.id.empty() && std::none_of(list.begin(), list.end(), [&](const DeviceInfo& d) {
                                 return d.id == stream.id;
                             });
        const int64_t last = stream.lastCallbackMs.load(std::memory_order_relaxed);
        // A new stream gets a grace period first: a PulseAudio null sink, for one, starts in bursts.
        const bool stalled = now - stream.openedMs > kStartGraceMs && (last == 0 || now - last > kStallMs);
        if (!removed && !stalled) return;

        DeviceEvent event;
        event.kind = DeviceEvent::Kind::kDeviceLost;
        event.direction = stream.direction;
        event.lostId = stream.id;
        event.reason = removed ? "removed" : "stalled";
        CloseLocked(stream);
        stream.id.clear();
        std::string error;
        if (OpenLocked(stream, "", &error)) {
            ++stream.reopened;
            event.fallbackOpened = true;
            event.fallbackName = stream.name;
        } else {
            event.fallbackName = error;
            stream.retryAtMs = now + kRetryMs;
        }
        Emit(std::move(event));
    }

    void Watch()
    {
        int64_t nextEnumeration = 0;
        std::unique_lock<std::mutex> wait(stopMutex_);
        while (!stopping_) {
            wait.unlock();
            const int64_t now = NowMs();
            {
                std::lock_guard<std::mutex> lock(control_);
                bool changed = false;
                if (now >= nextEnumeration) {
                    changed = EnumerateLocked();
                    nextEnumeration = now + kEnumeratePeriodMs;
                }
                CheckLocked(input_, now, changed);
                CheckLocked(output_, now, changed);
            }
            wait.lock();
            stopSignal_.wait_for(wait, std::chrono::milliseconds(kWatchPeriodMs), [this] { return stopping_; });
        }
    }

    ma_context context_{};
    bool contextReady_ = false;
    std::mutex control_;
    Stream input_;
    Stream output_;
    std::vector<DeviceInfo> inputs_;
    std::vector<DeviceInfo> outputs_;
    bool enumerated_ = false;

    std::mutex eventsMutex_;
    std::deque<DeviceEvent> events_;

    // The capture reader's own state (its thread only): the cushion and the window of its backlog bound.
    CaptureReader reader_{kSampleRate * kChannels};

    std::mutex stopMutex_;
    std::condition_variable stopSignal_;
    bool stopping_ = false;
    std::thread watcher_;
};

} // namespace

std::unique_ptr<SystemAudio> CreateSystemAudio(std::string* error)
{
    auto system = std::make_unique<MiniaudioSystem>();
    if (!system->Start(error)) return nullptr;
    return system;
}

bool SystemAudioBuilt() noexcept
{
    return true;
}

} // namespace sdkpp::devices

#else

namespace sdkpp::devices {

std::unique_ptr<SystemAudio> CreateSystemAudio(std::string* error)
{
#if defined(__APPLE__)
    // The macOS prebuilds are cross-built on Linux, where Apple's SDK (CoreAudio's headers) is not.
    *error = "this macOS build of the addon has no system audio: it was cross-built without Apple's SDK, so "
             "the game passes PCM in and out, or builds the addon on a Mac (npm run build:native)";
#else
    *error = "this build of the addon has no system audio (miniaudio was not available when it was built)";
#endif
    return nullptr;
}

bool SystemAudioBuilt() noexcept
{
    return false;
}

} // namespace sdkpp::devices

#endif
