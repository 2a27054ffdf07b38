#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/audio/audio_result.h"
#include "core/span.h"

namespace sdkpp::audio {

// libopus behind two small classes, built only when the build found libopus (SDKPP_HAVE_OPUS, set by
// binding.gyp from `pkg-config --exists opus`). Without it Create() fails with kCodecUnavailable and the
// JS side supplies the codec (src/media/native/NativeMediaEngine.ts). Creation allocates the codec state
// once; Encode and Decode allocate nothing and write into caller-owned buffers.

// The linked libopus's version string, e.g. "libopus 1.3.1", or nullptr when built without it.
const char* OpusVersionString() noexcept;

struct OpusEncoderConfig {
    // Bits per second for the stereo stream; libopus accepts 500..512000.
    int32_t bitrate = 64000;
    // In-band forward error correction: each packet also carries a low-bitrate copy of the previous
    // frame, which the receiver decodes when that frame's own packet is lost.
    bool inbandFec = true;
    // The loss rate the encoder plans its FEC for, 0..100.
    int32_t packetLossPercent = 10;
    // OPUS_APPLICATION_VOIP (true) favours speech and FEC; OPUS_APPLICATION_AUDIO (false) music.
    bool voip = true;
};

class OpusEncoder {
public:
    static std::unique_ptr<OpusEncoder> Create(const OpusEncoderConfig& config, AudioResult* result) noexcept;
    ~OpusEncoder();
    OpusEncoder(const OpusEncoder&) = delete;
    OpusEncoder& operator=(const OpusEncoder&) = delete;

    // Encodes exactly one 20 ms frame (kFrameSamples interleaved samples) into `out`.
    AudioResult Encode(Span<const int16_t> pcm, MutableByteView out, size_t* written) noexcept;
    AudioResult SetBitrate(int32_t bitrate) noexcept;
    AudioResult SetPacketLossPercent(int32_t percent) noexcept;
    const AudioCounters& Counters() const noexcept { return counters_; }

private:
    explicit OpusEncoder(void* state) noexcept : state_(state) {}
    void* state_;
    AudioCounters counters_;
};

class OpusDecoder {
public:
    static std::unique_ptr<OpusDecoder> Create(AudioResult* result) noexcept;
    ~OpusDecoder();
    OpusDecoder(const OpusDecoder&) = delete;
    OpusDecoder& operator=(const OpusDecoder&) = delete;

    // Decodes `packet` into `pcm` (interleaved stereo). With `fec`, decodes instead the previous frame's
    // redundant copy carried by `packet` (the packet after a lost one); one 20 ms frame, or concealment
    // when the packet has no such copy. *samplesPerChannel is what was written per channel.
    AudioResult Decode(ByteView packet, Span<int16_t> pcm, bool fec, size_t* samplesPerChannel) noexcept;
    // Packet-loss concealment: one 20 ms frame extrapolated from the decoder's state.
    AudioResult Conceal(Span<int16_t> pcm, size_t* samplesPerChannel) noexcept;
    const AudioCounters& Counters() const noexcept { return counters_; }

private:
    explicit OpusDecoder(void* state) noexcept : state_(state) {}
    AudioResult Run(const uint8_t* data, size_t size, Span<int16_t> pcm, size_t frameSize, bool fec,
                    size_t* samplesPerChannel) noexcept;
    void* state_;
    AudioCounters counters_;
};

} // namespace sdkpp::audio
