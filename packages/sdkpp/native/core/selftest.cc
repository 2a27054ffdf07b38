#include "core/selftest.h"

#include <chrono>
#include <cstring>

#include "core/crypto/aead_vectors.h"
#include "core/hex.h"

namespace sdkpp {
namespace {

using crypto::AeadAlgorithm;
using crypto::AeadParameters;
using crypto::AeadResult;
using crypto::IAeadCipher;

constexpr size_t kMaxKeySize = 32;
constexpr size_t kMaxNonceSize = 24;
constexpr size_t kMaxAadSize = 64;
constexpr size_t kRoundTripMaxSize = 1024;
constexpr size_t kTamperSize = 64;

// Test data only, never keys that protect anything: a small, seedable generator (SplitMix64) is enough.
class TestRandom {
public:
    explicit TestRandom(uint64_t seed) noexcept : state_(seed) {}

    uint64_t Next() noexcept
    {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    size_t Between(size_t low, size_t high) noexcept
    {
        return low + static_cast<size_t>(Next() % (high - low + 1));
    }

    void Fill(MutableByteView bytes) noexcept
    {
        for (uint8_t& byte : bytes) {
            byte = static_cast<uint8_t>(Next());
        }
    }

private:
    uint64_t state_;
};

template <size_t N>
struct FixedBytes {
    uint8_t data[N] = {};
    size_t size = 0;

    bool Decode(std::string_view hex) noexcept
    {
        size = DecodeHex(hex, MutableByteView{data, N});
        return size != kInvalidHex;
    }
    void Random(TestRandom& random, size_t count) noexcept
    {
        size = count <= N ? count : N;
        random.Fill(Bytes());
    }
    ByteView View() const noexcept { return {data, size}; }
    MutableByteView Bytes() noexcept { return {data, size}; }
};

bool Equal(ByteView a, ByteView b) noexcept
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

bool AllZero(ByteView bytes) noexcept
{
    for (const uint8_t byte : bytes) {
        if (byte != 0) {
            return false;
        }
    }
    return true;
}

bool SealThenOpen(IAeadCipher& cipher,
                  ByteView nonce,
                  ByteView aad,
                  ByteView plaintext,
                  MutableByteView sealed,
                  MutableByteView opened) noexcept
{
    size_t sealedSize = 0;
    size_t openedSize = 0;
    return cipher.Seal(nonce, aad, plaintext, sealed, &sealedSize) == AeadResult::kSuccess &&
           cipher.Open(nonce, aad, sealed.first(sealedSize), opened, &openedSize) == AeadResult::kSuccess &&
           Equal(opened.first(openedSize), plaintext);
}

bool CheckKnownAnswer(const crypto::AeadKnownAnswer& vector) noexcept
{
    FixedBytes<kMaxKeySize> key;
    FixedBytes<kMaxNonceSize> nonce;
    FixedBytes<kMaxAadSize> aad;
    FixedBytes<crypto::kAeadKnownAnswerMaxPlaintext> plaintext;
    FixedBytes<crypto::kAeadKnownAnswerMaxPlaintext + crypto::kAeadMaxTagSize> expected;
    FixedBytes<crypto::kAeadMaxTagSize> tag;
    if (!key.Decode(vector.key) || !nonce.Decode(vector.nonce) || !aad.Decode(vector.aad) ||
        !plaintext.Decode(vector.plaintext) || !expected.Decode(vector.ciphertext) ||
        !tag.Decode(vector.tag)) {
        return false;
    }
    std::memcpy(expected.data + expected.size, tag.data, tag.size);
    expected.size += tag.size;

    const auto cipher = crypto::CreateAeadCipher(vector.algorithm, key.View());
    if (!cipher) {
        return false;
    }
    uint8_t sealed[sizeof(expected.data)];
    uint8_t opened[sizeof(plaintext.data)];
    size_t sealedSize = 0;
    size_t openedSize = 0;
    return cipher->Seal(nonce.View(), aad.View(), plaintext.View(), sealed, &sealedSize) ==
             AeadResult::kSuccess &&
           Equal({sealed, sealedSize}, expected.View()) &&
           cipher->Open(nonce.View(), aad.View(), expected.View(), opened, &openedSize) ==
             AeadResult::kSuccess &&
           Equal({opened, openedSize}, plaintext.View());
}

bool CheckKnownAnswers(AeadAlgorithm algorithm) noexcept
{
    bool any = false;
    for (const crypto::AeadKnownAnswer& vector : crypto::kAeadKnownAnswers) {
        if (vector.algorithm != algorithm) {
            continue;
        }
        if (!CheckKnownAnswer(vector)) {
            return false;
        }
        any = true;
    }
    return any;
}

// One cipher for every message, so that re-arming the reused backend context is exercised too.
bool CheckRoundTrip(AeadAlgorithm algorithm, const AeadParameters& parameters, TestRandom& random) noexcept
{
    FixedBytes<kMaxKeySize> key;
    key.Random(random, parameters.keySize);
    const auto cipher = crypto::CreateAeadCipher(algorithm, key.View());
    if (!cipher) {
        return false;
    }
    FixedBytes<kMaxNonceSize> nonce;
    FixedBytes<kMaxAadSize> aad;
    FixedBytes<kRoundTripMaxSize> plaintext;
    uint8_t sealed[kRoundTripMaxSize + crypto::kAeadMaxTagSize];
    uint8_t opened[kRoundTripMaxSize];
    const size_t lengths[] = {0, 1, random.Between(2, kRoundTripMaxSize)};
    for (const size_t length : lengths) {
        nonce.Random(random, parameters.nonceSize);
        aad.Random(random, random.Between(0, kMaxAadSize));
        plaintext.Random(random, length);
        if (!SealThenOpen(*cipher, nonce.View(), aad.View(), plaintext.View(), sealed, opened)) {
            return false;
        }
    }
    // In place, as the transport will use it: the sealed bytes overwrite the plaintext they came from, and
    // the opened bytes overwrite those. Only the final comparison with the untouched copy means anything.
    std::memcpy(sealed, plaintext.data, plaintext.size);
    const ByteView inPlace{sealed, plaintext.size};
    return SealThenOpen(*cipher, nonce.View(), aad.View(), inPlace, sealed, sealed) &&
           Equal(inPlace, plaintext.View());
}

bool RejectsTampering(AeadAlgorithm algorithm, const AeadParameters& parameters, TestRandom& random) noexcept
{
    FixedBytes<kMaxKeySize> key;
    FixedBytes<kMaxNonceSize> nonce;
    FixedBytes<kMaxAadSize> aad;
    FixedBytes<kTamperSize> plaintext;
    key.Random(random, parameters.keySize);
    nonce.Random(random, parameters.nonceSize);
    aad.Random(random, 16);
    plaintext.Random(random, kTamperSize);
    const auto cipher = crypto::CreateAeadCipher(algorithm, key.View());
    uint8_t sealed[kTamperSize + crypto::kAeadMaxTagSize];
    size_t sealedSize = 0;
    if (!cipher || cipher->Seal(nonce.View(), aad.View(), plaintext.View(), sealed, &sealedSize) !=
                     AeadResult::kSuccess) {
        return false;
    }
    const auto rejected = [&](ByteView tamperedAad, ByteView tamperedSealed) {
        uint8_t opened[kTamperSize];
        std::memset(opened, 0xa5, sizeof(opened));
        return cipher->Open(nonce.View(), tamperedAad, tamperedSealed, opened, nullptr) ==
                 AeadResult::kAuthenticationFailed &&
               AllZero(opened);
    };
    const auto flipBit = [&](uint8_t* bytes, size_t size) {
        bytes[random.Between(0, size - 1)] ^= static_cast<uint8_t>(1U << random.Between(0, 7));
    };

    uint8_t tampered[sizeof(sealed)];
    std::memcpy(tampered, sealed, sealedSize);
    flipBit(tampered, kTamperSize);
    const bool ciphertextRejected = rejected(aad.View(), {tampered, sealedSize});

    std::memcpy(tampered, sealed, sealedSize);
    flipBit(tampered + kTamperSize, parameters.tagSize);
    const bool tagRejected = rejected(aad.View(), {tampered, sealedSize});

    FixedBytes<kMaxAadSize> otherAad = aad;
    flipBit(otherAad.data, otherAad.size);
    const bool aadRejected = rejected(otherAad.View(), {sealed, sealedSize});

    // A failed open must leave the reused context usable for the next packet.
    uint8_t opened[kTamperSize];
    size_t openedSize = 0;
    const bool recovers = cipher->Open(nonce.View(), aad.View(), {sealed, sealedSize}, opened, &openedSize) ==
                            AeadResult::kSuccess &&
                          Equal({opened, openedSize}, plaintext.View());
    return ciphertextRejected && tagRejected && aadRejected && recovers;
}

} // namespace

bool CryptoSelfTestReport::Ok() const noexcept
{
    if (count == 0) {
        return false;
    }
    for (size_t i = 0; i < count; ++i) {
        if (!results[i].Ok()) {
            return false;
        }
    }
    return true;
}

AeadSelfTestResult RunAeadSelfTest(AeadAlgorithm algorithm, uint64_t seed) noexcept
{
    AeadSelfTestResult result;
    result.algorithm = algorithm;
    const AeadParameters* parameters = crypto::GetAeadParameters(algorithm);
    if (parameters == nullptr || !crypto::IsAeadAlgorithmSupported(algorithm)) {
        return result;
    }
    TestRandom random(seed);
    result.knownAnswer = CheckKnownAnswers(algorithm);
    result.roundTrip = CheckRoundTrip(algorithm, *parameters, random);
    result.rejectsTampering = RejectsTampering(algorithm, *parameters, random);
    return result;
}

CryptoSelfTestReport RunCryptoSelfTest(uint64_t seed) noexcept
{
    CryptoSelfTestReport report;
    for (const AeadAlgorithm algorithm : crypto::kAeadAlgorithms) {
        if (crypto::IsAeadAlgorithmSupported(algorithm)) {
            report.results[report.count] = RunAeadSelfTest(algorithm, seed + report.count);
            ++report.count;
        }
    }
    return report;
}

CryptoSelfTestReport RunCryptoSelfTest() noexcept
{
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    return RunCryptoSelfTest(static_cast<uint64_t>(now));
}

} // namespace sdkpp
