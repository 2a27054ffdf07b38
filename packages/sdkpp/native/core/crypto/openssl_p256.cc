// P-256 on OpenSSL's EC_KEY methods (see p256.h for why not through EVP). Those are deprecated since
// OpenSSL 3.0 in favour of EVP_PKEY, whose key construction from raw bytes is the slow part this file
// exists to avoid; they remain in every 3.x release, and a libcrypto without them (configured no-ec, or with
// the 3.0 deprecations removed) compiles this file to P256Available() == false.
#define OPENSSL_SUPPRESS_DEPRECATED

#include <openssl/opensslconf.h>

#include "core/crypto/p256.h"

#if !defined(OPENSSL_NO_EC) && !defined(OPENSSL_NO_DEPRECATED_3_0)
#define SDKPP_HAS_P256 1
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>

#include <memory>
#endif

namespace sdkpp::crypto {

#if defined(SDKPP_HAS_P256)
namespace {

struct KeyFree {
    // EC_KEY_free wipes the private scalar it holds.
    void operator()(EC_KEY* key) const noexcept { EC_KEY_free(key); }
};
struct BnFree {
    void operator()(BIGNUM* bn) const noexcept { BN_clear_free(bn); }
};
struct PointFree {
    void operator()(EC_POINT* point) const noexcept { EC_POINT_free(point); }
};
using Key = std::unique_ptr<EC_KEY, KeyFree>;
using Bn = std::unique_ptr<BIGNUM, BnFree>;
using Point = std::unique_ptr<EC_POINT, PointFree>;

Key NewKey() noexcept
{
    return Key(EC_KEY_new_by_curve_name(NID_X9_62_prime256v1));
}

// A key holding `scalar` as its private key, or null unless 1 ≤ scalar < n.
Key KeyFromScalar(ByteView scalar) noexcept
{
    if (scalar.size() != kP256ScalarSize) {
        return {};
    }
    Key key = NewKey();
    if (!key) {
        return {};
    }
    const Bn d(BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr));
    const BIGNUM* order = EC_GROUP_get0_order(EC_KEY_get0_group(key.get()));
    if (!d || order == nullptr || BN_is_zero(d.get()) || BN_cmp(d.get(), order) >= 0 ||
        EC_KEY_set_private_key(key.get(), d.get()) != 1) {
        return {};
    }
    return key;
}

// The point of an uncompressed encoding, or null unless it lies on the curve (EC_POINT_oct2point checks).
Point PointFromBytes(const EC_GROUP* group, ByteView point) noexcept
{
    if (point.size() != kP256PointSize || point[0] != 0x04) {
        return {};
    }
    Point result(EC_POINT_new(group));
    if (!result || EC_POINT_oct2point(group, result.get(), point.data(), point.size(), nullptr) != 1) {
        return {};
    }
    return result;
}

bool WritePoint(const EC_GROUP* group, const EC_POINT* point, uint8_t (&out)[kP256PointSize]) noexcept
{
    return EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, out, sizeof(out), nullptr) ==
           sizeof(out);
}

void Digest(ByteView message, uint8_t (&digest)[SHA256_DIGEST_LENGTH]) noexcept
{
    static const uint8_t kEmpty[1] = {0};
    SHA256(message.empty() ? kEmpty : message.data(), message.size(), digest);
}

// Every failure path clears OpenSSL's error queue, which is per thread and would otherwise grow and be
// reported by the next unrelated caller on this thread.
bool Fail() noexcept
{
    ERR_clear_error();
    return false;
}

} // namespace

bool P256Available() noexcept
{
    return true;
}

bool P256Sign(ByteView scalar,
              ByteView message,
              uint8_t (&signature)[kP256MaxSignatureSize],
              size_t* signatureSize) noexcept
{
    *signatureSize = 0;
    const Key key = KeyFromScalar(scalar);
    if (!key || ECDSA_size(key.get()) > static_cast<int>(sizeof(signature))) {
        return Fail();
    }
    uint8_t digest[SHA256_DIGEST_LENGTH];
    Digest(message, digest);
    unsigned int size = 0;
    if (ECDSA_sign(0, digest, sizeof(digest), signature, &size, key.get()) != 1 || size > sizeof(signature)) {
        OPENSSL_cleanse(signature, sizeof(signature));
        return Fail();
    }
    *signatureSize = size;
    return true;
}

bool P256Verify(ByteView point, ByteView message, ByteView signature) noexcept
{
    if (signature.empty() || signature.size() > kP256MaxSignatureSize) {
        return false;
    }
    const Key key = NewKey();
    if (!key || point.size() != kP256PointSize || point[0] != 0x04 ||
        EC_KEY_oct2key(key.get(), point.data(), point.size(), nullptr) != 1) {
        return Fail();
    }
    uint8_t digest[SHA256_DIGEST_LENGTH];
    Digest(message, digest);
    // 1 valid, 0 invalid, -1 malformed (OpenSSL also refuses a DER encoding that is not the canonical one).
    if (ECDSA_verify(0, digest, sizeof(digest), signature.data(), static_cast<int>(signature.size()),
                     key.get()) != 1) {
        return Fail();
    }
    return true;
}

bool P256SharedSecret(ByteView scalar, ByteView point, uint8_t (&secret)[kP256SharedSecretSize]) noexcept
{
    const Key key = KeyFromScalar(scalar);
    if (!key) {
        return Fail();
    }
    const Point peer = PointFromBytes(EC_KEY_get0_group(key.get()), point);
    if (!peer || ECDH_compute_key(secret, sizeof(secret), peer.get(), key.get(), nullptr) !=
                   static_cast<int>(sizeof(secret))) {
        OPENSSL_cleanse(secret, sizeof(secret));
        return Fail();
    }
    return true;
}

bool P256Generate(uint8_t (&scalar)[kP256ScalarSize], uint8_t (&point)[kP256PointSize]) noexcept
{
    const Key key = NewKey();
    if (!key || EC_KEY_generate_key(key.get()) != 1 ||
        BN_bn2binpad(EC_KEY_get0_private_key(key.get()), scalar, sizeof(scalar)) != sizeof(scalar) ||
        !WritePoint(EC_KEY_get0_group(key.get()), EC_KEY_get0_public_key(key.get()), point)) {
        OPENSSL_cleanse(scalar, sizeof(scalar));
        return Fail();
    }
    return true;
}

bool P256PublicPoint(ByteView scalar, uint8_t (&point)[kP256PointSize]) noexcept
{
    const Key key = KeyFromScalar(scalar);
    if (!key) {
        return Fail();
    }
    const EC_GROUP* group = EC_KEY_get0_group(key.get());
    const Point pub(EC_POINT_new(group));
    if (!pub ||
        EC_POINT_mul(group, pub.get(), EC_KEY_get0_private_key(key.get()), nullptr, nullptr, nullptr) != 1 ||
        !WritePoint(group, pub.get(), point)) {
        return Fail();
    }
    return true;
}

#else // no EC in this libcrypto

bool P256Available() noexcept
{
    return false;
}

bool P256Sign(ByteView, ByteView, uint8_t (&)[kP256MaxSignatureSize], size_t* signatureSize) noexcept
{
    *signatureSize = 0;
    return false;
}

bool P256Verify(ByteView, ByteView, ByteView) noexcept
{
    return false;
}

bool P256SharedSecret(ByteView, ByteView, uint8_t (&)[kP256SharedSecretSize]) noexcept
{
    return false;
}

bool P256Generate(uint8_t (&)[kP256ScalarSize], uint8_t (&)[kP256PointSize]) noexcept
{
    return false;
}

bool P256PublicPoint(ByteView, uint8_t (&)[kP256PointSize]) noexcept
{
    return false;
}

#endif

} // namespace sdkpp::crypto
