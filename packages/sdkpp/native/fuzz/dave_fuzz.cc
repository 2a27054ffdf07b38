// The DAVE media frame receive path (ParseFrame and Decryptor::Decrypt) on raw bytes, and an encrypt /
// decrypt round trip of a frame and clear ranges built from the input. A fresh decryptor per input, so
// that every input replays alone exactly as it ran (no replay-window state carried between inputs).
#include <cstring>
#include <memory>

#include "core/dave/decryptor.h"
#include "core/dave/encryptor.h"
#include "core/dave/frame.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {
namespace {

using namespace sdkpp::dave;

constexpr uint8_t kBaseSecret[kBaseSecretSize] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                                  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10};

class FixedClock final : public IClock {
public:
    int64_t NowMs() const noexcept override { return 1'000'000; }
};

const FixedClock kClock;

std::unique_ptr<uint8_t[]> Exact(size_t size)
{
    return std::unique_ptr<uint8_t[]>(new uint8_t[size == 0 ? 1 : size]);
}

std::unique_ptr<Decryptor> KeyedDecryptor()
{
    std::unique_ptr<Decryptor> decryptor = Decryptor::Create(&kClock, false);
    SDKPP_FUZZ_CHECK(decryptor != nullptr && decryptor->TransitionToKeyRatchet(kBaseSecret));
    return decryptor;
}

void CheckParsed(const ParsedFrame& parsed, size_t size)
{
    SDKPP_FUZZ_CHECK(parsed.interleavedSize + kMinSupplementalSize <= size);
    SDKPP_FUZZ_CHECK(parsed.rangeCount <= kMaxRanges);
    size_t end = 0;
    for (size_t i = 0; i < parsed.rangeCount; ++i) {
        const Range& range = parsed.ranges[i];
        SDKPP_FUZZ_CHECK(range.offset >= end && Inside(range.offset, range.size, parsed.interleavedSize));
        end = range.offset + range.size;
    }
}

} // namespace

void FuzzDaveFrame(const uint8_t* data, size_t size)
{
    const ByteView frame{data, size};
    ParsedFrame parsed;
    if (ParseFrame(frame, &parsed) == Result::kOk) {
        CheckParsed(parsed, size);
    }

    const std::unique_ptr<Decryptor> decryptor = KeyedDecryptor();
    const auto out = Exact(size);
    size_t written = 0;
    const Result result = decryptor->Decrypt(frame, {out.get(), size}, &written);
    SDKPP_FUZZ_CHECK(Succeeded(result) ? written <= size : written == 0);

    // In place, on a copy, with a second decryptor in the same state: the same outcome and bytes.
    const std::unique_ptr<Decryptor> inPlaceDecryptor = KeyedDecryptor();
    const auto copy = Exact(size);
    if (size > 0) {
        std::memcpy(copy.get(), data, size);
    }
    size_t inPlaceWritten = 0;
    const Result inPlace = inPlaceDecryptor->Decrypt({copy.get(), size}, {copy.get(), size}, &inPlaceWritten);
    SDKPP_FUZZ_CHECK(inPlace == result && inPlaceWritten == written);
    SDKPP_FUZZ_CHECK(written == 0 || std::memcmp(copy.get(), out.get(), written) == 0);

    // One byte too small an output is refused, never overrun.
    if (Succeeded(result) && written > 0) {
        const std::unique_ptr<Decryptor> small = KeyedDecryptor();
        const auto shortOut = Exact(written - 1);
        size_t shortWritten = 0;
        SDKPP_FUZZ_CHECK(!Succeeded(small->Decrypt(frame, {shortOut.get(), written - 1}, &shortWritten)));
    }
}

void FuzzDaveSeal(const uint8_t* data, size_t size)
{
    FuzzInput input(data, size);
    const uint32_t nonce = input.U32();
    const size_t rangeCount = input.Byte() % 5;
    Range ranges[4];
    for (size_t i = 0; i < rangeCount; ++i) {
        ranges[i].offset = input.U16();
        ranges[i].size = input.U16();
    }
    const ByteView frame = input.Rest();
    const Span<const Range> clear{ranges, rangeCount};

    const std::unique_ptr<Encryptor> encryptor = Encryptor::Create();
    SDKPP_FUZZ_CHECK(encryptor != nullptr && encryptor->SetKeyRatchet(kBaseSecret));
    // Nonces of the first generations only: a fresh decryptor accepts at most 250 generations ahead.
    encryptor->SetNextNonce(nonce & 0x3FFFFFF);
    const size_t capacity = Encryptor::MaxEncryptedSize(frame.size(), rangeCount);
    const auto sealed = Exact(capacity);
    size_t sealedSize = 0;
    const Result encrypted = encryptor->Encrypt(frame, clear, {sealed.get(), capacity}, &sealedSize);
    if (IsOpusSilenceFrame(frame)) {
        // The silence frame passes unencrypted whatever ranges came with it, and passes the decryptor too.
        SDKPP_FUZZ_CHECK(encrypted == Result::kPassthrough && sealedSize == frame.size());
        const std::unique_ptr<Decryptor> decryptor = KeyedDecryptor();
        uint8_t out[sizeof(kOpusSilenceFrame)];
        size_t outSize = 0;
        const Result passed = decryptor->Decrypt({sealed.get(), sealedSize}, out, &outSize);
        SDKPP_FUZZ_CHECK(passed == Result::kPassthrough && outSize == frame.size() &&
                         std::memcmp(out, frame.data(), outSize) == 0);
        return;
    }
    if (!RangesValid(clear, frame.size())) {
        SDKPP_FUZZ_CHECK(encrypted == Result::kBadRanges);
        return;
    }
    if (encrypted == Result::kBadRanges) {
        return; // valid ranges whose footer would not fit the one-byte supplemental size
    }
    SDKPP_FUZZ_CHECK(encrypted == Result::kOk && sealedSize <= capacity);

    const std::unique_ptr<Decryptor> decryptor = KeyedDecryptor();
    const auto opened = Exact(sealedSize);
    size_t openedSize = 0;
    const ByteView sealedView{sealed.get(), sealedSize};
    const MutableByteView openedView{opened.get(), sealedSize};
    const Result decrypted = decryptor->Decrypt(sealedView, openedView, &openedSize);
    SDKPP_FUZZ_CHECK(decrypted == Result::kOk);
    SDKPP_FUZZ_CHECK(openedSize == frame.size() &&
                     (frame.empty() || std::memcmp(opened.get(), frame.data(), frame.size()) == 0));

    // A second delivery of the same frame is a replay.
    SDKPP_FUZZ_CHECK(decryptor->Decrypt(sealedView, openedView, &openedSize) == Result::kReplayedNonce);

    // One flipped bit anywhere before the footer's marker must not change what comes out: either the
    // frame is refused, or (a bit of the footer that means nothing, such as the offset of an empty clear
    // range, which the first run of this target found) it decrypts to exactly the frame that was sent.
    const std::unique_ptr<Decryptor> fresh = KeyedDecryptor();
    const size_t flip = nonce % (sealedSize - kMarkerSize);
    sealed[flip] = static_cast<uint8_t>(sealed[flip] ^ (1U << (nonce % 8)));
    std::memset(opened.get(), 0, sealedSize);
    const Result tampered = fresh->Decrypt(sealedView, openedView, &openedSize);
    SDKPP_FUZZ_CHECK(tampered != Result::kPassthrough);
    SDKPP_FUZZ_CHECK(tampered != Result::kOk ||
                     (openedSize == frame.size() &&
                      (frame.empty() || std::memcmp(opened.get(), frame.data(), frame.size()) == 0)));
}

} // namespace sdkpp::fuzz
