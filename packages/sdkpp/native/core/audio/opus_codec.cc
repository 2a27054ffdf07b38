#include "core/audio/opus_codec.h"

#include "core/audio/audio_format.h"

#if defined(SDKPP_HAVE_OPUS) && !defined(SDKPP_DISABLE_OPUS)
#define SDKPP_OPUS_ENABLED 1
#include <opus.h>
#endif

namespace sdkpp::audio {

#ifdef SDKPP_OPUS_ENABLED

namespace {

// Larger than any packet of the platform's 20 ms frames; the JS engine refuses the same sizes.
constexpr size_t kMaxDecodePacketSize = 4000;

::OpusEncoder* Enc(void* state) noexcept
{
    return static_cast<::OpusEncoder*>(state);
}

::OpusDecoder* Dec(void* state) noexcept
{
    return static_cast<::OpusDecoder*>(state);
}

AudioResult FromOpusError(int code) noexcept
{
    switch (code) {
    case OPUS_INVALID_PACKET:
        return AudioResult::kInvalidPacket;
    case OPUS_BUFFER_TOO_SMALL:
        return AudioResult::kBufferTooSmall;
    case OPUS_BAD_ARG:
        return AudioResult::kBadArgument;
    default:
        return AudioResult::kCodecError;
    }
}

} // namespace

const char* OpusVersionString() noexcept
{
    return opus_get_version_string();
}

std::unique_ptr<OpusEncoder> OpusEncoder::Create(const OpusEncoderConfig& config,
                                                 AudioResult* result) noexcept
{
    int error = OPUS_OK;
    ::OpusEncoder* state = opus_encoder_create(
      kSampleRate, kChannels, config.voip ? OPUS_APPLICATION_VOIP : OPUS_APPLICATION_AUDIO, &error);
    if (state == nullptr || error != OPUS_OK) {
        *result = AudioResult::kCodecError;
        return nullptr;
    }
    std::unique_ptr<OpusEncoder> encoder(new (std::nothrow) OpusEncoder(state));
    if (!encoder) {
        opus_encoder_destroy(state);
        *result = AudioResult::kCodecError;
        return nullptr;
    }
    if (opus_encoder_ctl(state, OPUS_SET_INBAND_FEC(config.inbandFec ? 1 : 0)) != OPUS_OK ||
        encoder->SetBitrate(config.bitrate) != AudioResult::kOk ||
        encoder->SetPacketLossPercent(config.packetLossPercent) != AudioResult::kOk) {
        *result = AudioResult::kBadArgument;
        return nullptr;
    }
    *result = AudioResult::kOk;
    return encoder;
}

OpusEncoder::~OpusEncoder()
{
    opus_encoder_destroy(Enc(state_));
}

AudioResult OpusEncoder::SetBitrate(int32_t bitrate) noexcept
{
    if (bitrate < 500 || bitrate > 512000) {
        return AudioResult::kBadArgument;
    }
    return opus_encoder_ctl(Enc(state_), OPUS_SET_BITRATE(bitrate)) == OPUS_OK ? AudioResult::kOk
                                                                                : AudioResult::kBadArgument;
}

AudioResult OpusEncoder::SetPacketLossPercent(int32_t percent) noexcept
{
    if (percent < 0 || percent > 100) {
        return AudioResult::kBadArgument;
    }
    return opus_encoder_ctl(Enc(state_), OPUS_SET_PACKET_LOSS_PERC(percent)) == OPUS_OK
             ? AudioResult::kOk
             : AudioResult::kBadArgument;
}

AudioResult OpusEncoder::Encode(Span<const int16_t> pcm, MutableByteView out, size_t* written) noexcept
{
    *written = 0;
    AudioResult result = AudioResult::kOk;
    if (pcm.size() != kFrameSamples) {
        result = AudioResult::kBadFrameSize;
    } else if (out.empty()) {
        result = AudioResult::kBufferTooSmall;
    } else {
        const auto capacity = static_cast<opus_int32>(out.size() < 4000 ? out.size() : 4000);
        const auto frameSize = static_cast<int>(kFrameSamplesPerChannel);
        const opus_int32 size = opus_encode(Enc(state_), pcm.data(), frameSize, out.data(), capacity);
        if (size < 0) {
            result = FromOpusError(size);
        } else {
            *written = static_cast<size_t>(size);
        }
    }
    counters_.Count(result);
    return result;
}

std::unique_ptr<OpusDecoder> OpusDecoder::Create(AudioResult* result) noexcept
{
    int error = OPUS_OK;
    ::OpusDecoder* state = opus_decoder_create(kSampleRate, kChannels, &error);
    if (state == nullptr || error != OPUS_OK) {
        *result = AudioResult::kCodecError;
        return nullptr;
    }
    std::unique_ptr<OpusDecoder> decoder(new (std::nothrow) OpusDecoder(state));
    if (!decoder) {
        opus_decoder_destroy(state);
        *result = AudioResult::kCodecError;
        return nullptr;
    }
    *result = AudioResult::kOk;
    return decoder;
}

OpusDecoder::~OpusDecoder()
{
    opus_decoder_destroy(Dec(state_));
}

AudioResult OpusDecoder::Run(const uint8_t* data,
                             size_t size,
                             Span<int16_t> pcm,
                             size_t frameSize,
                             bool fec,
                             size_t* samplesPerChannel) noexcept
{
    if (pcm.size() / kChannels < frameSize) {
        return AudioResult::kBufferTooSmall;
    }
    const int decoded = opus_decode(Dec(state_), data, static_cast<opus_int32>(size), pcm.data(),
                                    static_cast<int>(frameSize), fec ? 1 : 0);
    if (decoded < 0) {
        return FromOpusError(decoded);
    }
    *samplesPerChannel = static_cast<size_t>(decoded);
    return AudioResult::kOk;
}

AudioResult OpusDecoder::Decode(ByteView packet,
                                Span<int16_t> pcm,
                                bool fec,
                                size_t* samplesPerChannel) noexcept
{
    *samplesPerChannel = 0;
    AudioResult result = AudioResult::kOk;
    // An empty packet would make libopus conceal a loss; a loss is asked for with Conceal(), never implied.
    const size_t room = pcm.size() / kChannels;
    if (packet.empty() || packet.size() > kMaxDecodePacketSize) {
        result = AudioResult::kInvalidPacket;
    } else if (room == 0) {
        result = AudioResult::kBufferTooSmall;
    } else {
        const size_t longest = room < kMaxPacketSamplesPerChannel ? room : kMaxPacketSamplesPerChannel;
        const size_t frameSize = fec ? kFrameSamplesPerChannel : longest;
        result = Run(packet.data(), packet.size(), pcm, frameSize, fec, samplesPerChannel);
    }
    counters_.Count(result);
    return result;
}

AudioResult OpusDecoder::Conceal(Span<int16_t> pcm, size_t* samplesPerChannel) noexcept
{
    *samplesPerChannel = 0;
    const AudioResult result = Run(nullptr, 0, pcm, kFrameSamplesPerChannel, false, samplesPerChannel);
    counters_.Count(result);
    return result;
}

#else // built without libopus: the classes exist, Create() says why there is no codec.

const char* OpusVersionString() noexcept
{
    return nullptr;
}

std::unique_ptr<OpusEncoder> OpusEncoder::Create(const OpusEncoderConfig&, AudioResult* result) noexcept
{
    *result = AudioResult::kCodecUnavailable;
    return nullptr;
}

OpusEncoder::~OpusEncoder() = default;

AudioResult OpusEncoder::SetBitrate(int32_t) noexcept
{
    return AudioResult::kCodecUnavailable;
}

AudioResult OpusEncoder::SetPacketLossPercent(int32_t) noexcept
{
    return AudioResult::kCodecUnavailable;
}

AudioResult OpusEncoder::Encode(Span<const int16_t>, MutableByteView, size_t* written) noexcept
{
    *written = 0;
    return AudioResult::kCodecUnavailable;
}

std::unique_ptr<OpusDecoder> OpusDecoder::Create(AudioResult* result) noexcept
{
    *result = AudioResult::kCodecUnavailable;
    return nullptr;
}

OpusDecoder::~OpusDecoder() = default;

AudioResult OpusDecoder::Run(
  const uint8_t*, size_t, Span<int16_t>, size_t, bool, size_t* samplesPerChannel) noexcept
{
    *samplesPerChannel = 0;
    return AudioResult::kCodecUnavailable;
}

AudioResult OpusDecoder::Decode(ByteView, Span<int16_t>, bool, size_t* samplesPerChannel) noexcept
{
    *samplesPerChannel = 0;
    return AudioResult::kCodecUnavailable;
}

AudioResult OpusDecoder::Conceal(Span<int16_t>, size_t* samplesPerChannel) noexcept
{
    *samplesPerChannel = 0;
    return AudioResult::kCodecUnavailable;
}

#endif

} // namespace sdkpp::audio
