#include "core/dave/dave_selftest.h"

#include <cstring>

#include "core/audio/alloc_counter.h"
#include "core/crypto/aes_gcm_selftest.h"
#include "core/dave/decryptor.h"
#include "core/dave/encryptor.h"

namespace sdkpp::dave {
namespace {

constexpr uint32_t kFrames = 1000;
constexpr size_t kOpusFrameSize = 120;

// A clock the test moves by hand, 20 ms per frame.
class TestClock final : public IClock {
public:
    int64_t NowMs() const noexcept override { return now; }
    int64_t now = 0;
};

// davey's hash_ratchet.rs vector (dave-e2ee.md §1.7).
bool RatchetVector() noexcept
{
    static const uint8_t kBase[kBaseSecretSize] = {0xce, 0xdd, 0x61, 0xb1, 0xb8, 0xa1, 0xca, 0x69,
                                                   0x04, 0x65, 0x54, 0x28, 0x2c, 0xf7, 0x0b, 0x7b};
    static const uint8_t kKey0[kFrameKeySize] = {0x75, 0x30, 0xf9, 0xa9, 0x94, 0x5e, 0x2d, 0x2e,
                                                 0x06, 0xd0, 0x65, 0x1f, 0x7b, 0x2a, 0x86, 0x4b};
    HashRatchet ratchet;
    uint8_t key[kFrameKeySize];
    return ratchet.Reset(ByteView(kBase)) && ratchet.AdvanceTo(0, key) &&
           std::memcmp(key, kKey0, sizeof(key)) == 0;
}

} // namespace

bool DaveSelfTestReport::Ok() const noexcept
{
    for (size_t i = 0; i < count; ++i) {
        if (!checks[i].ok) {
            return false;
        }
    }
    return count > 0;
}

DaveSelfTestReport RunDaveSelfTest() noexcept
{
    DaveSelfTestReport report;
    const auto add = [&report](std::string_view name, bool ok) {
        if (report.count < kMaxDaveChecks) {
            report.checks[report.count++] = DaveCheck{name, ok};
        }
    };
    add("ratchet-vector", RatchetVector());
    add("gcm-known-answer", crypto::GcmStreamKnownAnswer());
    add("gcm-backends-agree", crypto::GcmStreamBackendsAgree());

    TestClock clock;
    const std::unique_ptr<Encryptor> encryptor = Encryptor::Create();
    const std::unique_ptr<Decryptor> decryptor = Decryptor::Create(&clock, false);
    uint8_t base[kBaseSecretSize];
    for (size_t i = 0; i < sizeof(base); ++i) {
        base[i] = static_cast<uint8_t>(i * 7 + 1);
    }
    if (!encryptor || !decryptor || !encryptor->SetKeyRatchet(ByteView(base)) ||
        !decryptor->TransitionToKeyRatchet(ByteView(base))) {
        add("create", false);
        return report;
    }
    uint8_t frame[kOpusFrameSize];
    for (size_t i = 0; i < sizeof(frame); ++i) {
        frame[i] = static_cast<uint8_t>(i);
    }
    uint8_t sealed[kOpusFrameSize + kMaxSupplementalSize];
    uint8_t opened[sizeof(sealed)];
    const Range videoHeader[1] = {Range{0, 10}};

    // One frame each way first: it derives and keys generation 0, which happens once per ratchet.
    size_t sealedSize = 0;
    size_t openedSize = 0;
    bool ok = encryptor->Encrypt(ByteView(frame), {}, MutableByteView(sealed), &sealedSize) == Result::kOk &&
              sealedSize == kOpusFrameSize + 12 && sealed[sealedSize - 4] == 0x01 &&
              sealed[sealedSize - 3] == 0x0c &&
              decryptor->Decrypt({sealed, sealedSize}, MutableByteView(opened), &openedSize) == Result::kOk;
    add("opus-frame-layout", ok);

    report.countingAvailable = audio::AllocationCountingAvailable();
    const uint64_t before = audio::AllocationCount();
    bool roundTrips = true;
    bool refusals = true;
    for (uint32_t i = 0; i < kFrames; ++i) {
        clock.now += 20;
        frame[0] = static_cast<uint8_t>(i);
        const Span<const Range> ranges = i % 4 == 3 ? Span<const Range>(videoHeader) : Span<const Range>();
        const MutableByteView out(opened);
        const Result encrypted =
          encryptor->Encrypt(ByteView(frame), ranges, MutableByteView(sealed), &sealedSize);
        if (encrypted != Result::kOk) {
            roundTrips = false;
            break;
        }
        const ByteView received{sealed, sealedSize};
        // A forged tag, the real frame, then its replay: the three outcomes of the hot path.
        sealed[kOpusFrameSize] ^= 1;
        refusals =
          refusals && decryptor->Decrypt(received, out, &openedSize) == Result::kAuthenticationFailed;
        sealed[kOpusFrameSize] ^= 1;
        roundTrips = roundTrips && decryptor->Decrypt(received, out, &openedSize) == Result::kOk &&
                     openedSize == kOpusFrameSize && std::memcmp(opened, frame, kOpusFrameSize) == 0;
        refusals = refusals && decryptor->Decrypt(received, out, &openedSize) == Result::kReplayedNonce;
    }
    report.allocationsInFrames = audio::AllocationCount() - before;
    report.frames = kFrames;
    add("round-trips", roundTrips);
    add("refusals", refusals);
    // Only where allocations are counted (as the audio self-test): elsewhere the count would be 0 for nothing.
    if (report.countingAvailable) {
        add("no-allocation-per-frame", report.allocationsInFrames == 0);
    }
    return report;
}

} // namespace sdkpp::dave
