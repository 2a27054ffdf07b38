#include "core/dave/encryptor.h"

#include <cstring>
#include <new>

#include "core/crypto/hchacha20.h"
#include "core/dave/leb128.h"

namespace sdkpp::dave {
namespace {

constexpr unsigned kGenerationShift = 24;

Result CopyThrough(ByteView frame, MutableByteView out, size_t* written) noexcept
{
    if (out.size() < frame.size()) {
        return Result::kOutputTooSmall;
    }
    if (OverlapsPartially(frame, out.data(), frame.size())) {
        return Result::kOverlappingBuffers;
    }
    if (!frame.empty() && out.data() != frame.data()) {
        std::memcpy(out.data(), frame.data(), frame.size());
    }
    *written = frame.size();
    return Result::kPassthrough;
}

} // namespace

std::unique_ptr<Encryptor> Encryptor::Create() noexcept
{
    std::unique_ptr<Encryptor> encryptor(new (std::nothrow) Encryptor());
    if (!encryptor) {
        return nullptr;
    }
    encryptor->stream_ = crypto::CreateAes128GcmStream();
    return encryptor->stream_ ? std::move(encryptor) : nullptr;
}

Encryptor::~Encryptor()
{
    crypto::SecureWipe(MutableByteView(base_));
}

bool Encryptor::SetKeyRatchet(ByteView baseSecret) noexcept
{
    if (!ratchet_.Reset(baseSecret)) {
        return false;
    }
    std::memcpy(base_, baseSecret.data(), kBaseSecretSize);
    hasKey_ = true;
    keyGeneration_ = UINT64_MAX;
    nextNonce_ = 1;
    return true;
}

size_t Encryptor::MaxEncryptedSize(size_t frameSize, size_t rangeCount) noexcept
{
    // Capped by the one-byte supplemental size, whatever the range count.
    const size_t footer = kMinSupplementalSize + 5 + 2 * kMaxLeb128Size * rangeCount;
    return frameSize + (footer < kMaxSupplementalSize ? footer : kMaxSupplementalSize);
}

bool Encryptor::SelectGeneration(uint64_t generation) noexcept
{
    if (generation == keyGeneration_) {
        return true;
    }
    if (generation < ratchet_.NextGeneration() && !ratchet_.Reset(ByteView(base_))) {
        return false;
    }
    uint8_t key[kFrameKeySize];
    const bool ok = ratchet_.AdvanceTo(generation, key) && stream_->SetKey(ByteView(key));
    crypto::SecureWipe(MutableByteView(key));
    keyGeneration_ = ok ? generation : UINT64_MAX;
    return ok;
}

Result Encryptor::Encrypt(ByteView frame,
                          Span<const Range> clearRanges,
                          MutableByteView out,
                          size_t* written) noexcept
{
    *written = 0;
    const Result result = EncryptFrame(frame, clearRanges, out, written);
    counters_.Count(result);
    return result;
}

Result Encryptor::EncryptFrame(ByteView frame,
                               Span<const Range> clearRanges,
                               MutableByteView out,
                               size_t* written) noexcept
{
    if (passthrough_ || IsOpusSilenceFrame(frame)) {
        return CopyThrough(frame, out, written);
    }
    if (!hasKey_) {
        return Result::kNoKey;
    }
    if (!RangesValid(clearRanges, frame.size())) {
        return Result::kBadRanges;
    }
    const uint64_t fullNonce = nextNonce_;
    const auto nonce = static_cast<uint32_t>(fullNonce);
    size_t footerSize = 0;
    if (const Result sized = FooterSize(nonce, clearRanges, &footerSize); sized != Result::kOk) {
        return sized;
    }
    if (out.size() < frame.size() || out.size() - frame.size() < footerSize) {
        return Result::kOutputTooSmall;
    }
    if (OverlapsPartially(frame, out.data(), frame.size() + footerSize)) {
        return Result::kOverlappingBuffers;
    }
    if (!SelectGeneration(fullNonce >> kGenerationShift)) {
        return Result::kBackendError;
    }
    uint8_t iv[crypto::kGcmIvSize];
    NonceToIv(nonce, iv);
    uint8_t* tag = out.data() + frame.size();
    if (!stream_->Begin(iv, true) || !TransformInterleaved(*stream_, frame, clearRanges, out.data()) ||
        !stream_->Finish(MutableByteView{tag, kTagSize})) {
        return Result::kBackendError;
    }
    WriteFooterAfterTag(nonce, clearRanges, footerSize, tag);
    ++nextNonce_;
    *written = frame.size() + footerSize;
    return Result::kOk;
}

} // namespace sdkpp::dave
