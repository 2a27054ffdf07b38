#include "core/dave/epoch_keys.h"

#include <cstring>
#include <utility>

#include "core/crypto/hchacha20.h"

namespace sdkpp::dave {
namespace {

constexpr unsigned kGenerationShift = 24;
constexpr uint64_t kGenerationWrap = 256; // the nonce carries 8 bits of generation
// How far below the newest generation a frame's 8-bit generation is read as older rather than as a
// wrap-around: the 256 values cover newest - 5 .. newest + 250.
constexpr uint64_t kGenerationsBehind = kGenerationWrap - 1 - kMaxGenerationGap;

} // namespace

bool EpochKeys::Init() noexcept
{
    for (Slot& slot : slots_) {
        slot.stream = crypto::CreateAes128GcmStream();
        if (!slot.stream) {
            return false;
        }
    }
    spare_ = crypto::CreateAes128GcmStream();
    return spare_ != nullptr;
}

bool EpochKeys::Reset(ByteView baseSecret) noexcept
{
    if (!ratchet_.Reset(baseSecret)) {
        return false;
    }
    for (Slot& slot : slots_) {
        slot.used = false;
    }
    inUse_ = true;
    expiry_ = kNever;
    anyDecrypted_ = false;
    newestGeneration_ = 0;
    replay_.Reset();
    return true;
}

void EpochKeys::Release() noexcept
{
    inUse_ = false;
    ratchet_ = HashRatchet();
    for (Slot& slot : slots_) {
        slot.used = false;
    }
}

void EpochKeys::DropExpired(int64_t now) noexcept
{
    for (Slot& slot : slots_) {
        if (slot.used && slot.expiry <= now) {
            slot.used = false;
        }
    }
}

EpochKeys::Slot* EpochKeys::Find(uint64_t generation) noexcept
{
    for (Slot& slot : slots_) {
        if (slot.used && slot.generation == generation) {
            return &slot;
        }
    }
    return nullptr;
}

// A free slot, else the one of the oldest generation (only reachable when generations change faster than
// every 10 s, i.e. a sender jumping ahead on purpose).
EpochKeys::Slot* EpochKeys::Claim() noexcept
{
    Slot* oldest = &slots_[0];
    for (Slot& slot : slots_) {
        if (!slot.used) {
            return &slot;
        }
        if (slot.generation < oldest->generation) {
            oldest = &slot;
        }
    }
    return oldest;
}

uint64_t EpochKeys::Unwrap(uint32_t nonce) const noexcept
{
    const uint64_t low = nonce >> kGenerationShift;
    const uint64_t floor =
      newestGeneration_ > kGenerationsBehind ? newestGeneration_ - kGenerationsBehind : 0;
    uint64_t generation = (floor & ~(kGenerationWrap - 1)) | low;
    if (generation < floor) {
        generation += kGenerationWrap;
    }
    return generation;
}

Result EpochKeys::Decrypt(const ParsedFrame& parsed, ByteView frame, uint8_t* out, int64_t now) noexcept
{
    const uint64_t generation = Unwrap(parsed.nonce);
    if (generation > newestGeneration_ + kMaxGenerationGap) {
        return Result::kGenerationTooFarAhead;
    }
    const uint64_t fullNonce = generation << kGenerationShift | (parsed.nonce & 0xFFFFFFu);
    if (!replay_.CanAccept(fullNonce)) {
        return Result::kReplayedNonce;
    }
    Slot* slot = Find(generation);
    crypto::IGcmStream* stream = nullptr;
    HashRatchet trial;
    if (slot != nullptr) {
        stream = slot->stream.get();
    } else if (generation < ratchet_.NextGeneration()) {
        return Result::kKeyExpired;
    } else {
        // Derive on a copy: a forged frame naming a later generation must not move the real ratchet.
        trial = ratchet_;
        uint8_t key[kFrameKeySize];
        const bool keyed = trial.AdvanceTo(generation, key) && spare_->SetKey(ByteView(key));
        crypto::SecureWipe(MutableByteView(key));
        if (!keyed) {
            return Result::kBackendError;
        }
        stream = spare_.get();
    }
    uint8_t iv[crypto::kGcmIvSize];
    NonceToIv(parsed.nonce, iv);
    const ByteView interleaved = frame.first(parsed.interleavedSize);
    const Span<const Range> ranges{parsed.ranges, parsed.rangeCount};
    if (!stream->Begin(iv, false) || !TransformInterleaved(*stream, interleaved, ranges, out)) {
        crypto::SecureWipe(MutableByteView{out, parsed.interleavedSize});
        return Result::kBackendError;
    }
    if (!stream->Verify(parsed.tag)) {
        crypto::SecureWipe(MutableByteView{out, parsed.interleavedSize});
        return Result::kAuthenticationFailed;
    }
    if (slot == nullptr) {
        ratchet_ = trial;
        slot = Claim();
        std::swap(slot->stream, spare_);
        slot->used = true;
        slot->generation = generation;
        slot->expiry = kNever;
    }
    replay_.Accept(fullNonce);
    if (!anyDecrypted_ || generation > newestGeneration_) {
        anyDecrypted_ = true;
        newestGeneration_ = generation;
        for (Slot& other : slots_) {
            if (other.used && other.generation < generation && other.expiry == kNever) {
                other.expiry = now + kKeyRetentionMs;
            }
        }
    }
    return Result::kOk;
}

} // namespace sdkpp::dave
