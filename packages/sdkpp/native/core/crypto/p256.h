#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::crypto {

// P-256 (secp256r1) for DAVE's MLS cipher suite 2: ECDSA-SHA256 signatures in DER form and ECDH, on keys in
// the raw form MLS carries them (a 32-byte big-endian scalar, a 65-byte uncompressed point 0x04 ‖ x ‖ y).
//
// Why natively when Node has these: through node:crypto each operation pays OpenSSL 3's provider lookups and
// a key import from JWK or DER (on Node 20's OpenSSL 3.0, 93 µs to import a public key, 85 µs to verify with
// it, 166 µs for an ephemeral ECDH); OpenSSL's EC methods called directly take 9, 51 and 56 µs. An MLS
// commit imports, verifies and agrees a key several times, and a join verifies every member's leaf.
//
// Every function checks its sizes, the scalar's range (1 ≤ d < n) and that a point lies on the curve, and
// fails (false) rather than reading past a view; secrets it made on the way are wiped. P256Available() is
// false when the linked libcrypto was configured without EC (the cross targets' trimmed OpenSSL): then
// every other function fails and callers use node:crypto.

inline constexpr size_t kP256ScalarSize = 32;
inline constexpr size_t kP256PointSize = 65;
inline constexpr size_t kP256SharedSecretSize = 32;
// A DER ECDSA-Sig-Value of P-256: SEQUENCE of two INTEGERs of at most 33 bytes each.
inline constexpr size_t kP256MaxSignatureSize = 72;

bool P256Available() noexcept;

// ECDSA-SHA256 of `message` under `scalar`; writes the DER signature to `signature` and its size to
// `signatureSize`.
bool P256Sign(ByteView scalar,
              ByteView message,
              uint8_t (&signature)[kP256MaxSignatureSize],
              size_t* signatureSize) noexcept;

// Whether `signature` (DER) is a valid ECDSA-SHA256 signature of `message` by `point`. A malformed point or
// signature is simply not valid.
bool P256Verify(ByteView point, ByteView message, ByteView signature) noexcept;

// The x coordinate of scalar·point (RFC 9180's DH for DHKEM(P-256)).
bool P256SharedSecret(ByteView scalar, ByteView point, uint8_t (&secret)[kP256SharedSecretSize]) noexcept;

// A fresh key pair from OpenSSL's random generator.
bool P256Generate(uint8_t (&scalar)[kP256ScalarSize], uint8_t (&point)[kP256PointSize]) noexcept;

// The public point of `scalar`.
bool P256PublicPoint(ByteView scalar, uint8_t (&point)[kP256PointSize]) noexcept;

} // namespace sdkpp::crypto
