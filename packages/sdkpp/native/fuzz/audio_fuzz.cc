// The audio receive path that network bytes reach: the jitter buffer (sequence numbers, timestamps and
// payload sizes straight from RTP, in any order) and the Opus decoder wrapper (any payload, with and
// without FEC). Without libopus in the build, opus_decode checks that the decoder says so and stops.
#include <cmath>
#include <memory>

#include "core/audio/audio_format.h"
#include "core/audio/jitter_buffer.h"
#include "core/audio/opus_codec.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {
namespace {

using namespace sdkpp::audio;

std::unique_ptr<uint8_t[]> Exact(size_t size)
{
    return std::unique_ptr<uint8_t[]>(new uint8_t[size == 0 ? 1 : size]);
}

} // namespace

void FuzzJitterBuffer(const uint8_t* data, size_t size)
{
    FuzzInput input(data, size);
    JitterConfig config;
    config.minDelayFrames = input.Byte() % 8;
    config.maxDelayFrames = input.Byte() % 40;
    // About 80 KB of slots: on the heap, where an overrun of the object shows.
    const auto buffer = std::make_unique<JitterBuffer>(config);
    double nowMs = 0;
    uint16_t sequence = input.U16();
    uint32_t timestamp = input.U32();
    const auto out = Exact(kMaxOpusPacketSize);
    // Each step is a push or a pop. Past the end of the input every step is a pop, which drains what is
    // buffered: up to 64 steps in all, then stop.
    for (size_t step = 0; step < 4096 && (input.Remaining() > 0 || step < 64); ++step) {
        const uint8_t op = input.Byte();
        nowMs += op >> 3; // 0..31 ms between events
        if ((op & 1) != 0) {
            // Mostly the next packet, sometimes a jump anywhere (reordering, loss, a restart, wrap-around).
            sequence = (op & 2) != 0 ? input.U16() : static_cast<uint16_t>(sequence + 1 + (op & 4));
            timestamp = (op & 2) != 0 ? input.U32() : timestamp + kFrameTimestampStep;
            const size_t length = input.U16() % (kMaxOpusPacketSize + 8);
            const ByteView payload = input.Take(length);
            const uint64_t pushedBefore = buffer->Stats().pushed;
            const AudioResult result = buffer->Push(sequence, timestamp, payload, nowMs);
            SDKPP_FUZZ_CHECK((result == AudioResult::kOk) == (buffer->Stats().pushed == pushedBefore + 1));
            SDKPP_FUZZ_CHECK(payload.size() <= kMaxOpusPacketSize || result == AudioResult::kPacketTooLarge);
        } else {
            // An output exactly as large as the caller asked for: full size, or (op & 2) a short one.
            const size_t capacity = (op & 2) != 0 ? static_cast<size_t>(op) : kMaxOpusPacketSize;
            const auto shortOut = Exact(capacity);
            JitterFrame frame;
            uint8_t* target = (op & 2) != 0 ? shortOut.get() : out.get();
            const AudioResult result = buffer->Pop({target, capacity}, &frame);
            SDKPP_FUZZ_CHECK(result == AudioResult::kOk || result == AudioResult::kBufferTooSmall);
            SDKPP_FUZZ_CHECK(frame.size <= capacity);
            const bool carriesPayload =
              frame.kind == JitterFrameKind::kPacket || frame.kind == JitterFrameKind::kFec;
            SDKPP_FUZZ_CHECK(result != AudioResult::kOk || carriesPayload == (frame.size > 0));
        }
        SDKPP_FUZZ_CHECK(buffer->Buffered() <= JitterBuffer::kCapacity);
        SDKPP_FUZZ_CHECK(std::isfinite(buffer->JitterMs()) && buffer->JitterMs() >= 0);
        SDKPP_FUZZ_CHECK(buffer->TargetDelayFrames() >= 1 &&
                         buffer->TargetDelayFrames() <= JitterBuffer::kCapacity);
    }
}

void FuzzOpusDecode(const uint8_t* data, size_t size)
{
    FuzzInput input(data, size);
    const bool fec = input.Bool();
    // Any odd or even sample count up to one frame: buffers too small for what the packet holds.
    const size_t small = 1 + input.U16() % kFrameSamples;
    const ByteView packet = input.Rest();
    AudioResult created = AudioResult::kOk;
    const std::unique_ptr<OpusDecoder> decoder = OpusDecoder::Create(&created);
    if (!decoder) {
        SDKPP_FUZZ_CHECK(created == AudioResult::kCodecUnavailable && OpusVersionString() == nullptr);
        return;
    }
    // The PCM buffer is exactly one 120 ms packet's worth (the most one Opus packet can hold), then one
    // 20 ms frame and a smaller size, where a longer packet must be refused instead of overrunning it.
    const size_t sizes[] = {kMaxPacketSamplesPerChannel * kChannels, kFrameSamples, small};
    for (const size_t samples : sizes) {
        const std::unique_ptr<int16_t[]> pcm(new int16_t[samples]);
        size_t perChannel = 0;
        const AudioResult result = decoder->Decode(packet, {pcm.get(), samples}, fec, &perChannel);
        SDKPP_FUZZ_CHECK(result != AudioResult::kOk || perChannel * kChannels <= samples);
        size_t concealed = 0;
        const AudioResult conceal = decoder->Conceal({pcm.get(), samples}, &concealed);
        SDKPP_FUZZ_CHECK(conceal != AudioResult::kOk || concealed == kFrameSamplesPerChannel);
    }
}

} // namespace sdkpp::fuzz
