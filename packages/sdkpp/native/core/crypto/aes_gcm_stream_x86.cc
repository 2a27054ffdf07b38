// AES-128-GCM for DAVE frames on the CPU's own AES and carry-less multiply instructions (x86-64 AES-NI and
// PCLMULQDQ), chosen at run time when the CPU has them. Why not OpenSSL's EVP here: a DAVE frame is about
// 120 bytes, and OpenSSL 3.0's EVP re-arms a context per message through its parameter machinery (the IV
// length is queried, the tag is fetched and set through OSSL_PARAM lists matched by strcmp), which cost more
// than the AES and GHASH of the frame itself. This backend does the same computation (NIST SP 800-38D)
// without that per-message overhead; the self-test (core/dave/dave_selftest.cc) checks it against a known
// answer and against the OpenSSL backend on random messages split into random pieces.
//
// Everything touching the instructions is compiled with a per-function target attribute, so the rest of
// the addon keeps the baseline instruction set and a CPU without them never executes one: the factory
// returns nullptr and the OpenSSL backend is used.

#include "core/crypto/aes_gcm_stream_backend.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SDKPP_GCM_X86 1
#endif

#ifdef SDKPP_GCM_X86

#include <cpuid.h>
#include <immintrin.h>

#include <cstring>
#include <new>

#include "core/crypto/hchacha20.h"

#define SDKPP_GCM_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1")))

namespace sdkpp::crypto {
namespace {

constexpr size_t kBlock = 16;
constexpr size_t kRounds = 10; // AES-128
constexpr size_t kBatch = 8;       // counter blocks encrypted together
constexpr size_t kAggregated = 4;  // blocks hashed per reduction
// The 32-bit block counter must not wrap into the first counter block (J0 + 1 is the first data block).
constexpr uint64_t kMaxTextBytes = (uint64_t{0xFFFFFFFF} - 1) * kBlock;

bool CpuHasInstructions() noexcept
{
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) {
        return false;
    }
    constexpr unsigned kPclmul = 1u << 1;
    constexpr unsigned kSsse3 = 1u << 9;
    constexpr unsigned kSse41 = 1u << 19;
    constexpr unsigned kAes = 1u << 25;
    constexpr unsigned kNeeded = kPclmul | kSsse3 | kSse41 | kAes;
    return (ecx & kNeeded) == kNeeded;
}

SDKPP_GCM_TARGET inline __m128i ByteSwap(__m128i value) noexcept
{
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm_shuffle_epi8(value, reverse);
}

// One step of the AES-128 key schedule; `assist` is AESKEYGENASSIST of the previous round key.
SDKPP_GCM_TARGET inline __m128i NextRoundKey(__m128i key, __m128i assist) noexcept
{
    assist = _mm_shuffle_epi32(assist, 0xff);
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    return _mm_xor_si128(key, assist);
}

// Multiplication in GF(2^128) as GHASH defines it, on byte-reversed operands, in two halves so that
// several products can share one reduction: the four carry-less 64x64 products of a*b are added into
// low/middle/high, and Reduce then shifts the 256-bit sum left by one bit (GHASH's bit order is reflected)
// and reduces it modulo x^128 + x^7 + x^2 + x + 1. Both steps are linear, so reducing a sum of products
// equals summing the reduced products.
SDKPP_GCM_TARGET inline void MultiplyAdd(__m128i a, __m128i b, __m128i& low, __m128i& middle, __m128i& high) noexcept
{
    low = _mm_xor_si128(low, _mm_clmulepi64_si128(a, b, 0x00));
    middle = _mm_xor_si128(middle, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x10), _mm_clmulepi64_si128(a, b, 0x01)));
    high = _mm_xor_si128(high, _mm_clmulepi64_si128(a, b, 0x11));
}

SDKPP_GCM_TARGET inline __m128i Reduce(__m128i low, __m128i middle, __m128i high) noexcept
{
    low = _mm_xor_si128(low, _mm_slli_si128(middle, 8));
    high = _mm_xor_si128(high, _mm_srli_si128(middle, 8));

    // The 256-bit product high:low shifted left by one bit.
    const __m128i lowCarry = _mm_srli_epi32(low, 31);
    const __m128i highCarry = _mm_srli_epi32(high, 31);
    low = _mm_or_si128(_mm_slli_epi32(low, 1), _mm_slli_si128(lowCarry, 4));
    high = _mm_or_si128(_mm_or_si128(_mm_slli_epi32(high, 1), _mm_slli_si128(highCarry, 4)),
                        _mm_srli_si128(lowCarry, 12));

    // Reduction, first phase: fold the low 32-bit words' contributions of x^127, x^126, x^121.
    __m128i fold = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(low, 31), _mm_slli_epi32(low, 30)),
                                 _mm_slli_epi32(low, 25));
    const __m128i spill = _mm_srli_si128(fold, 4);
    low = _mm_xor_si128(low, _mm_slli_si128(fold, 12));
    // Second phase.
    fold = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi32(low, 1), _mm_srli_epi32(low, 2)), _mm_srli_epi32(low, 7));
    fold = _mm_xor_si128(fold, spill);
    low = _mm_xor_si128(low, fold);
    return _mm_xor_si128(high, low);
}

SDKPP_GCM_TARGET inline __m128i GfMultiply(__m128i a, __m128i b) noexcept
{
    __m128i low = _mm_setzero_si128();
    __m128i middle = _mm_setzero_si128();
    __m128i high = _mm_setzero_si128();
    MultiplyAdd(a, b, low, middle, high);
    return Reduce(low, middle, high);
}

class HardwareGcmStream final : public IGcmStream {
public:
    HardwareGcmStream() noexcept = default;
    ~HardwareGcmStream() override
    {
        // The key schedule and everything derived from the key or the last message.
        SecureWipe({reinterpret_cast<uint8_t*>(roundKeys_), sizeof(roundKeys_)});
        SecureWipe({reinterpret_cast<uint8_t*>(hashPowers_), sizeof(hashPowers_)});
        SecureWipe({reinterpret_cast<uint8_t*>(&tagMask_), sizeof(tagMask_)});
        SecureWipe({reinterpret_cast<uint8_t*>(&hash_), sizeof(hash_)});
        SecureWipe(MutableByteView(keystream_));
        SecureWipe(MutableByteView(partial_));
    }

    HardwareGcmStream(const HardwareGcmStream&) = delete;
    HardwareGcmStream& operator=(const HardwareGcmStream&) = delete;

    bool SetKey(ByteView key) noexcept override
    {
        if (key.size() != kAes128KeySize) {
            return false;
        }
        Expand(key.data());
        hasKey_ = true;
        inMessage_ = false;
        return true;
    }

    bool Begin(const uint8_t (&iv)[kGcmIvSize], bool encrypt) noexcept override
    {
        if (!hasKey_) {
            return false;
        }
        Start(iv);
        encrypt_ = encrypt;
        inMessage_ = true;
        return true;
    }

    bool Aad(ByteView piece) noexcept override
    {
        if (!inMessage_ || textStarted_) {
            return false; // GCM takes every AAD byte before the first text byte
        }
        AbsorbAad(piece.data(), piece.size());
        return true;
    }

    bool Update(ByteView piece, uint8_t* out) noexcept override
    {
        if (!inMessage_ || piece.size() > kMaxTextBytes - textBytes_) {
            return false;
        }
        if (!textStarted_) {
            FlushAad();
            textStarted_ = true;
        }
        Transform(piece.data(), piece.size(), out);
        return true;
    }

    bool Finish(MutableByteView tag) noexcept override
    {
        if (!inMessage_ || !encrypt_ || tag.size() < 4 || tag.size() > kGcmMaxTagSize) {
            return false;
        }
        uint8_t full[kGcmMaxTagSize];
        ComputeTag(full);
        std::memcpy(tag.data(), full, tag.size());
        SecureWipe(MutableByteView(full));
        inMessage_ = false;
        return true;
    }

    bool Verify(ByteView tag) noexcept override
    {
        if (!inMessage_ || encrypt_ || tag.size() < 4 || tag.size() > kGcmMaxTagSize) {
            return false;
        }
        uint8_t full[kGcmMaxTagSize];
        ComputeTag(full);
        uint8_t difference = 0; // every byte compared, whatever the first mismatch
        for (size_t i = 0; i < tag.size(); ++i) {
            difference = static_cast<uint8_t>(difference | (full[i] ^ tag[i]));
        }
        SecureWipe(MutableByteView(full));
        inMessage_ = false;
        return difference == 0;
    }

private:
    SDKPP_GCM_TARGET void Expand(const uint8_t* key) noexcept
    {
        __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
        roundKeys_[0] = k;
        // AESKEYGENASSIST takes its round constant as an immediate, hence one line per round.
        roundKeys_[1] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x01));
        roundKeys_[2] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x02));
        roundKeys_[3] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x04));
        roundKeys_[4] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x08));
        roundKeys_[5] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x10));
        roundKeys_[6] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x20));
        roundKeys_[7] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x40));
        roundKeys_[8] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x80));
        roundKeys_[9] = k = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x1b));
        roundKeys_[10] = NextRoundKey(k, _mm_aeskeygenassist_si128(k, 0x36));
        // H, H^2, H^3, H^4: four blocks are hashed with one reduction (HashFour).
        hashPowers_[0] = ByteSwap(EncryptBlock(_mm_setzero_si128()));
        for (size_t i = 1; i < kAggregated; ++i) {
            hashPowers_[i] = GfMultiply(hashPowers_[i - 1], hashPowers_[0]);
        }
    }

    SDKPP_GCM_TARGET __m128i EncryptBlock(__m128i block) const noexcept
    {
        block = _mm_xor_si128(block, roundKeys_[0]);
        for (size_t round = 1; round < kRounds; ++round) {
            block = _mm_aesenc_si128(block, roundKeys_[round]);
        }
        return _mm_aesenclast_si128(block, roundKeys_[kRounds]);
    }

    // kBatch counter blocks at once: the AES rounds of independent blocks overlap in the pipeline, so eight
    // cost little more than one.
    SDKPP_GCM_TARGET void EncryptBatch(__m128i (&blocks)[kBatch]) const noexcept
    {
        for (__m128i& block : blocks) {
            block = _mm_xor_si128(block, roundKeys_[0]);
        }
        for (size_t round = 1; round < kRounds; ++round) {
            for (__m128i& block : blocks) {
                block = _mm_aesenc_si128(block, roundKeys_[round]);
            }
        }
        for (__m128i& block : blocks) {
            block = _mm_aesenclast_si128(block, roundKeys_[kRounds]);
        }
    }

    // hash = (hash + b0) * H^4 + b1 * H^3 + b2 * H^2 + b3 * H, one reduction for four blocks.
    SDKPP_GCM_TARGET void HashFour(const __m128i* blocks) noexcept
    {
        __m128i low = _mm_setzero_si128();
        __m128i middle = _mm_setzero_si128();
        __m128i high = _mm_setzero_si128();
        MultiplyAdd(_mm_xor_si128(hash_, ByteSwap(blocks[0])), hashPowers_[3], low, middle, high);
        MultiplyAdd(ByteSwap(blocks[1]), hashPowers_[2], low, middle, high);
        MultiplyAdd(ByteSwap(blocks[2]), hashPowers_[1], low, middle, high);
        MultiplyAdd(ByteSwap(blocks[3]), hashPowers_[0], low, middle, high);
        hash_ = Reduce(low, middle, high);
    }

    SDKPP_GCM_TARGET __m128i CounterBlock(uint32_t counter) const noexcept
    {
        return _mm_insert_epi32(ivBlock_, static_cast<int>(__builtin_bswap32(counter)), 3);
    }

    SDKPP_GCM_TARGET void Start(const uint8_t (&iv)[kGcmIvSize]) noexcept
    {
        uint8_t block[kBlock] = {};
        std::memcpy(block, iv, kGcmIvSize);
        ivBlock_ = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block));
        // J0 = IV || 1 masks the tag; data blocks count from 2.
        tagMask_ = EncryptBlock(CounterBlock(1));
        counter_ = 2;
        hash_ = _mm_setzero_si128();
        aadBytes_ = 0;
        textBytes_ = 0;
        pendingAad_ = 0;
        textStarted_ = false;
    }

    SDKPP_GCM_TARGET void HashBlock(__m128i block) noexcept
    {
        hash_ = GfMultiply(_mm_xor_si128(hash_, ByteSwap(block)), hashPowers_[0]);
    }

    SDKPP_GCM_TARGET void HashBytes(const uint8_t* bytes) noexcept
    {
        HashBlock(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes)));
    }

    void AbsorbAad(const uint8_t* data, size_t size) noexcept
    {
        aadBytes_ += size;
        while (size > 0) {
            if (pendingAad_ == 0 && size >= kBlock) {
                HashBytes(data);
                data += kBlock;
                size -= kBlock;
                continue;
            }
            const size_t take = size < kBlock - pendingAad_ ? size : kBlock - pendingAad_;
            std::memcpy(partial_ + pendingAad_, data, take);
            pendingAad_ += take;
            data += take;
            size -= take;
            if (pendingAad_ == kBlock) {
                HashBytes(partial_);
                pendingAad_ = 0;
            }
        }
    }

    // A last partial AAD block is zero-padded, once, before the text.
    void FlushAad() noexcept
    {
        if (pendingAad_ > 0) {
            std::memset(partial_ + pendingAad_, 0, kBlock - pendingAad_);
            HashBytes(partial_);
            pendingAad_ = 0;
        }
    }

    // CTR over `size` bytes, hashing the ciphertext (the output when sealing, the input when opening). The
    // keystream of a block cut by a piece boundary is kept in keystream_, its ciphertext in partial_. Input is
    // read before output is written, so exactly in place works.
    SDKPP_GCM_TARGET void Transform(const uint8_t* in, size_t size, uint8_t* out) noexcept
    {
        size_t offset = static_cast<size_t>(textBytes_ % kBlock);
        textBytes_ += size;
        // Finish a block a previous piece started.
        while (offset != 0 && size > 0) {
            const uint8_t input = *in++;
            const auto output = static_cast<uint8_t>(input ^ keystream_[offset]);
            *out++ = output;
            partial_[offset] = encrypt_ ? output : input;
            --size;
            if (++offset == kBlock) {
                HashBytes(partial_);
                offset = 0;
            }
        }
        // Whole blocks and a last partial one, up to kBatch at a time.
        while (size > 0) {
            __m128i keystream[kBatch];
            for (size_t i = 0; i < kBatch; ++i) {
                keystream[i] = CounterBlock(counter_ + static_cast<uint32_t>(i));
            }
            EncryptBatch(keystream);
            const size_t whole = size / kBlock < kBatch ? size / kBlock : kBatch;
            __m128i hashed[kBatch];
            for (size_t i = 0; i < whole; ++i) {
                const __m128i input = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i * kBlock));
                const __m128i output = _mm_xor_si128(input, keystream[i]);
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i * kBlock), output);
                hashed[i] = encrypt_ ? output : input;
            }
            size_t i = 0;
            for (; i + kAggregated <= whole; i += kAggregated) {
                HashFour(hashed + i);
            }
            for (; i < whole; ++i) {
                HashBlock(hashed[i]);
            }
            counter_ += static_cast<uint32_t>(whole);
            in += whole * kBlock;
            out += whole * kBlock;
            size -= whole * kBlock;
            if (whole < kBatch && size > 0) { // then size < kBlock
                // The last partial block: its keystream is kept for the next piece.
                _mm_storeu_si128(reinterpret_cast<__m128i*>(keystream_), keystream[whole]);
                ++counter_;
                for (size_t j = 0; j < size; ++j) {
                    const uint8_t input = in[j];
                    const auto output = static_cast<uint8_t>(input ^ keystream_[j]);
                    out[j] = output;
                    partial_[j] = encrypt_ ? output : input;
                }
                size = 0;
            }
        }
    }

    SDKPP_GCM_TARGET void ComputeTag(uint8_t (&tag)[kGcmMaxTagSize]) noexcept
    {
        FlushAad(); // a message with AAD and no text
        const size_t pendingText = static_cast<size_t>(textBytes_ % kBlock);
        if (pendingText > 0) {
            std::memset(partial_ + pendingText, 0, kBlock - pendingText);
            HashBytes(partial_);
        }
        // The lengths block: bit lengths of AAD and text, each 64-bit big-endian.
        HashBlock(ByteSwap(_mm_set_epi64x(static_cast<long long>(aadBytes_ * 8),
                                          static_cast<long long>(textBytes_ * 8))));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(tag), _mm_xor_si128(ByteSwap(hash_), tagMask_));
    }

    __m128i roundKeys_[kRounds + 1] = {};
    __m128i hashPowers_[kAggregated] = {}; // H = AES_K(0) and its powers, byte-reversed for GfMultiply
    __m128i ivBlock_ = {};  // IV || 0, the counter inserted per block
    __m128i tagMask_ = {};  // AES_K(J0)
    __m128i hash_ = {};     // the GHASH accumulator, byte-reversed
    uint8_t keystream_[kBlock] = {};
    uint8_t partial_[kBlock] = {};
    uint64_t aadBytes_ = 0;
    uint64_t textBytes_ = 0;
    size_t pendingAad_ = 0;
    uint32_t counter_ = 2;
    bool hasKey_ = false;
    bool inMessage_ = false;
    bool textStarted_ = false;
    bool encrypt_ = true;
};

} // namespace

std::unique_ptr<IGcmStream> CreateHardwareAes128GcmStream() noexcept
{
    static const bool supported = CpuHasInstructions();
    if (!supported) {
        return nullptr;
    }
    return std::unique_ptr<IGcmStream>(new (std::nothrow) HardwareGcmStream());
}

} // namespace sdkpp::crypto

#else

namespace sdkpp::crypto {

std::unique_ptr<IGcmStream> CreateHardwareAes128GcmStream() noexcept
{
    return nullptr;
}

} // namespace sdkpp::crypto

#endif
