// The P-256 operations the DAVE session's MLS hands network bytes to (core/crypto/p256.h): a member's point
// and signature straight from a key package or a commit, an HPKE sender's point from a Welcome. Whatever the
// bytes, nothing is read past a view; and the round trips hold: what a scalar signs, its point verifies, and
// not once the message changes; two scalars agree on a shared secret.
#include <cstring>

#include "core/crypto/p256.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {

void FuzzP256(const uint8_t* data, size_t size)
{
    if (!crypto::P256Available()) {
        return; // a libcrypto without EC: every call fails, which the JS side checks for
    }
    FuzzInput input(data, size);
    const uint8_t shape = input.Byte();
    // Views of exactly the input's bytes (no copies), so the sanitizer sees a read past any of them.
    const ByteView point = input.Take(shape & 1 ? crypto::kP256PointSize : input.Byte() % 80);
    const ByteView signature = input.Take(input.Byte());
    const ByteView scalar = input.Take(shape & 2 ? crypto::kP256ScalarSize : input.Byte() % 40);
    const ByteView message = input.Rest();

    (void)crypto::P256Verify(point, message, signature);

    uint8_t ownScalar[crypto::kP256ScalarSize];
    uint8_t ownPoint[crypto::kP256PointSize];
    SDKPP_FUZZ_CHECK(crypto::P256Generate(ownScalar, ownPoint));
    uint8_t secret[crypto::kP256SharedSecretSize];
    if (crypto::P256SharedSecret(ownScalar, point, secret)) {
        // The point was valid: agreement from its side needs its scalar, which the input may not have; at
        // least our own pair must agree with itself the same way.
        uint8_t again[crypto::kP256SharedSecretSize];
        SDKPP_FUZZ_CHECK(crypto::P256SharedSecret(ownScalar, point, again));
        SDKPP_FUZZ_CHECK(std::memcmp(secret, again, sizeof(secret)) == 0);
    }

    uint8_t derived[crypto::kP256PointSize];
    if (crypto::P256PublicPoint(scalar, derived)) {
        uint8_t signed_[crypto::kP256MaxSignatureSize];
        size_t signedSize = 0;
        SDKPP_FUZZ_CHECK(crypto::P256Sign(scalar, message, signed_, &signedSize));
        SDKPP_FUZZ_CHECK(signedSize > 0 && signedSize <= sizeof(signed_));
        SDKPP_FUZZ_CHECK(crypto::P256Verify(derived, message, {signed_, signedSize}));
        // Each side's secret with the other's point is the same (ECDH).
        uint8_t mine[crypto::kP256SharedSecretSize];
        uint8_t theirs[crypto::kP256SharedSecretSize];
        SDKPP_FUZZ_CHECK(crypto::P256SharedSecret(scalar, ownPoint, mine));
        SDKPP_FUZZ_CHECK(crypto::P256SharedSecret(ownScalar, derived, theirs));
        SDKPP_FUZZ_CHECK(std::memcmp(mine, theirs, sizeof(mine)) == 0);
        // Any change to what was signed is refused: one more byte.
        if (message.size() < 4096) {
            uint8_t longer[4097];
            if (!message.empty()) std::memcpy(longer, message.data(), message.size());
            longer[message.size()] = 0x5a;
            SDKPP_FUZZ_CHECK(!crypto::P256Verify(derived, {longer, message.size() + 1}, {signed_, signedSize}));
        }
    } else {
        uint8_t unused[crypto::kP256MaxSignatureSize];
        size_t unusedSize = 1;
        SDKPP_FUZZ_CHECK(!crypto::P256Sign(scalar, message, unused, &unusedSize));
        SDKPP_FUZZ_CHECK(unusedSize == 0);
    }
}

} // namespace sdkpp::fuzz
