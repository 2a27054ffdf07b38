#include "core/audio/audio_selftest.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>

#include "core/audio/alloc_counter.h"
#include "core/audio/audio_format.h"
#include "core/audio/audio_processor.h"
#include "core/audio/jitter_buffer.h"
#include "core/audio/opus_codec.h"

namespace sdkpp::audio {
namespace {

constexpr size_t kSpeakers = 25;
constexpr uint32_t kTicks = 200;

// The counter must see an allocation it is shown, or a zero below would prove nothing. The calls go
// through volatile pointers so that the compiler cannot elide them.
bool CounterSeesAllocations() noexcept
{
    void* (*volatile allocate)(size_t) = static_cast<void* (*)(size_t)>(&::operator new);
    void (*volatile release)(void*) noexcept = static_cast<void (*)(void*) noexcept>(&::operator delete);
    void* (*volatile cAllocate)(size_t) = &std::malloc;
    const uint64_t before = AllocationCount();
    void* a = nullptr;
    try {
        a = allocate(64);
    } catch (...) {
        return false;
    }
    void* b = cAllocate(64);
    const uint64_t after = AllocationCount();
    release(a);
    std::free(b);
    return after - before == 2;
}

struct Pipeline {
    AudioProcessor processor;
    JitterBuffer jitter;
    std::unique_ptr<OpusEncoder> encoder;
    std::unique_ptr<OpusDecoder> decoder;
    int16_t capture[kFrameSamples] = {};
    int16_t decoded[kFrameSamples] = {};
    int16_t speakers[kSpeakers * kFrameSamples] = {};
    uint32_t keys[kSpeakers] = {};
    int16_t mixed[kFrameSamples] = {};
    uint8_t packet[kMaxOpusPacketSize] = {};
    uint8_t played[kMaxOpusPacketSize] = {};
};

// One tick of the send and receive paths. Arrival times wobble and every tenth packet is lost, so the
// jitter buffer adapts and recovers with FEC during the measurement.
bool Tick(Pipeline& p, uint32_t tick) noexcept
{
    for (size_t i = 0; i < kFrameSamplesPerChannel; ++i) {
        const auto position = static_cast<double>(tick * kFrameSamplesPerChannel + i);
        const double phase = 2.0 * 3.141592653589793 * 440.0 * position / kSampleRate;
        const auto sample = static_cast<int16_t>(std::lrint(8000.0 * std::sin(phase)));
        p.capture[2 * i] = sample;
        p.capture[2 * i + 1] = sample;
    }
    const SendAction action = p.processor.ProcessCapture({p.capture, kFrameSamples}, tick * 20.0);
    if (action != SendAction::kVoice) {
        return false;
    }
    size_t size = 3;
    if (p.encoder) {
        if (p.encoder->Encode({p.capture, kFrameSamples}, p.packet, &size) != AudioResult::kOk) {
            return false;
        }
    } else {
        p.packet[0] = kOpusSilenceFrame[0];
        p.packet[1] = kOpusSilenceFrame[1];
        p.packet[2] = kOpusSilenceFrame[2];
    }
    const auto sequence = static_cast<uint16_t>(tick);
    if (tick % 10 != 9) {
        p.jitter.Push(sequence, tick * kFrameTimestampStep, {p.packet, size}, tick * 20.0 + (tick % 4) * 7.0);
    }
    JitterFrame frame;
    if (p.jitter.Pop(p.played, &frame) != AudioResult::kOk) {
        return false;
    }
    if (p.decoder) {
        size_t samples = 0;
        AudioResult result = AudioResult::kOk;
        switch (frame.kind) {
        case JitterFrameKind::kPacket:
        case JitterFrameKind::kFec:
            result = p.decoder->Decode({p.played, frame.size}, p.decoded, frame.kind == JitterFrameKind::kFec,
                                       &samples);
            break;
        case JitterFrameKind::kConceal:
            result = p.decoder->Conceal(p.decoded, &samples);
            break;
        case JitterFrameKind::kEmpty:
            break;
        }
        if (result != AudioResult::kOk) {
            return false;
        }
    }
    for (size_t s = 0; s < kSpeakers; ++s) {
        for (size_t i = 0; i < kFrameSamples; ++i) {
            p.speakers[s * kFrameSamples + i] = p.decoded[i];
        }
    }
    p.processor.Mix(p.speakers, p.keys, kSpeakers, p.mixed);
    return true;
}

} // namespace

bool AudioSelfTestReport::Ok() const noexcept
{
    if (count == 0) {
        return false;
    }
    for (size_t i = 0; i < count; ++i) {
        if (!checks[i].ok) {
            return false;
        }
    }
    return true;
}

AudioSelfTestReport RunAudioSelfTest() noexcept
{
    AudioSelfTestReport report;
    const auto add = [&report](std::string_view name, bool ok) {
        if (report.count < kMaxAudioChecks) {
            report.checks[report.count++] = AudioCheck{name, ok};
        }
    };
    // A build whose linker cannot route allocations through the counter (the zig-linked prebuilds: no
    // --wrap) says so in countingAvailable and leaves both allocation checks out, rather than failing a
    // self-test of audio that works: the zero-allocation property is proven on the builds that count.
    report.countingAvailable = AllocationCountingAvailable();
    if (report.countingAvailable) {
        add("allocation-counter-counts", CounterSeesAllocations());
    }

    // Set-up may allocate (codec state, the pipeline's buffers); the ticks after it may not.
    std::unique_ptr<Pipeline> pipeline(new (std::nothrow) Pipeline());
    if (!pipeline) {
        add("pipeline-created", false);
        return report;
    }
    Pipeline& p = *pipeline;
    AudioResult result = AudioResult::kOk;
    p.encoder = OpusEncoder::Create(OpusEncoderConfig{}, &result);
    p.decoder = OpusDecoder::Create(&result);
    report.codecAvailable = p.encoder != nullptr && p.decoder != nullptr;
    add("codec-matches-build", report.codecAvailable == (OpusVersionString() != nullptr));
    for (size_t s = 0; s < kSpeakers; ++s) {
        p.keys[s] = static_cast<uint32_t>(1000 + s);
        p.processor.SetUserGain(p.keys[s], 0.5F + 0.05F * static_cast<float>(s));
    }
    p.processor.SetVadThresholdDb(-40.0);

    bool ticksOk = true;
    // A few ticks first, so that lazily initialised state (libopus's first-frame paths) is warm.
    for (uint32_t tick = 0; tick < 5; ++tick) {
        ticksOk = Tick(p, tick) && ticksOk;
    }
    const uint64_t before = AllocationCount();
    for (uint32_t tick = 5; tick < 5 + kTicks; ++tick) {
        ticksOk = Tick(p, tick) && ticksOk;
    }
    report.allocationsInTicks = AllocationCount() - before;
    report.ticks = kTicks;
    add("ticks-ran", ticksOk && p.jitter.Stats().fec + p.jitter.Stats().concealed > 0);
    if (report.countingAvailable) {
        add("no-allocation-per-tick", report.allocationsInTicks == 0);
    }
    return report;
}

} // namespace sdkpp::audio
