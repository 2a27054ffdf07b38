#include "core/dave/decryptor.h"

#include <cstring>
#include <new>

namespace sdkpp::dave {

std::unique_ptr<Decryptor> Decryptor::Create(const IClock* clock, bool passthrough) noexcept
{
    if (clock == nullptr) {
        return nullptr;
    }
    std::unique_ptr<Decryptor> decryptor(new (std::nothrow) Decryptor(clock));
    if (!decryptor) {
        return nullptr;
    }
    for (EpochKeys& epoch : decryptor->epochs_) {
        if (!epoch.Init()) {
            return nullptr;
        }
    }
    decryptor->passthroughForever_ = passthrough;
    return decryptor;
}

bool Decryptor::TransitionToKeyRatchet(ByteView baseSecret, int64_t retentionMs) noexcept
{
    if (baseSecret.size() != kBaseSecretSize) {
        return false;
    }
    const int64_t now = clock_->NowMs();
    // A free place, else the epoch that expires first (the oldest).
    size_t target = kEpochs;
    for (size_t i = 0; i < kEpochs; ++i) {
        if (epochs_[i].InUse()) {
            epochs_[i].ExpireAt(now + retentionMs);
        }
    }
    for (size_t i = 0; i < kEpochs; ++i) {
        if (!epochs_[i].InUse() || epochs_[i].Expiry() <= now) {
            target = i;
            break;
        }
    }
    if (target == kEpochs) {
        target = 0;
        for (size_t i = 1; i < kEpochs; ++i) {
            if (epochs_[i].Expiry() < epochs_[target].Expiry()) {
                target = i;
            }
        }
    }
    if (!epochs_[target].Reset(baseSecret)) {
        return false;
    }
    newest_ = target;
    return true;
}

void Decryptor::TransitionToPassthroughMode(bool enabled, int64_t retentionMs) noexcept
{
    if (enabled) {
        passthroughForever_ = true;
        return;
    }
    const int64_t until = clock_->NowMs() + retentionMs;
    if (passthroughForever_) {
        passthroughForever_ = false;
        passthroughUntil_ = until;
    } else if (until < passthroughUntil_) {
        passthroughUntil_ = until;
    }
}

Result Decryptor::Decrypt(ByteView frame, MutableByteView out, size_t* written) noexcept
{
    *written = 0;
    const Result result = DecryptFrame(frame, out, written);
    counters_.Count(result);
    return result;
}

Result Decryptor::DecryptFrame(ByteView frame, MutableByteView out, size_t* written) noexcept
{
    if (out.size() < frame.size()) {
        return Result::kOutputTooSmall;
    }
    if (OverlapsPartially(frame, out.data(), frame.size())) {
        return Result::kOverlappingBuffers;
    }
    const int64_t now = clock_->NowMs();
    const auto copyThrough = [&]() {
        if (!frame.empty() && out.data() != frame.data()) {
            std::memcpy(out.data(), frame.data(), frame.size());
        }
        *written = frame.size();
        return Result::kPassthrough;
    };
    if (IsOpusSilenceFrame(frame)) {
        return copyThrough();
    }
    for (size_t i = 0; i < kEpochs; ++i) {
        EpochKeys& epoch = epochs_[i];
        if (!epoch.InUse()) {
            continue;
        }
        if (epoch.Expiry() <= now) {
            epoch.Release();
            if (newest_ == i) {
                newest_ = kEpochs;
            }
            continue;
        }
        epoch.DropExpired(now);
    }
    ParsedFrame parsed;
    const Result parsedResult = ParseFrame(frame, &parsed);
    if (parsedResult != Result::kOk) {
        const bool passthrough = passthroughForever_ || now < passthroughUntil_;
        return passthrough ? copyThrough() : parsedResult;
    }
    if (newest_ == kEpochs) {
        return Result::kNoKey;
    }
    // The newest epoch first: after a transition, nearly every frame is for it.
    Result result = epochs_[newest_].Decrypt(parsed, frame, out.data(), now);
    for (size_t i = 0; i < kEpochs && !Succeeded(result); ++i) {
        if (i == newest_ || !epochs_[i].InUse()) {
            continue;
        }
        const Result older = epochs_[i].Decrypt(parsed, frame, out.data(), now);
        // Report the most telling failure: a wrong key in one epoch says less than a replay in another.
        if (Succeeded(older) || result == Result::kAuthenticationFailed) {
            result = older;
        }
    }
    if (result == Result::kOk) {
        *written = parsed.interleavedSize;
    }
    return result;
}

} // namespace sdkpp::dave
