#pragma once

// The functions addon.cc exports. Their JS shape is typed in one place: src/media/addon/types.ts.

#include <napi.h>

namespace sdkpp::addon {

Napi::Value Version(const Napi::CallbackInfo& info);
Napi::Value EngineInfo(const Napi::CallbackInfo& info);
Napi::Value CryptoSelfTest(const Napi::CallbackInfo& info);

// One-shot helpers: a fresh cipher per call. Tests compare them with node:crypto; the per-packet path
// (a cipher per key, caller-owned buffers) arrives with the transport.
Napi::Value AeadSeal(const Napi::CallbackInfo& info);
Napi::Value AeadOpen(const Napi::CallbackInfo& info);

// P-256 for the DAVE session's MLS cipher suite (p256_bindings.cc), exported only when P256Available().
Napi::Value P256Sign(const Napi::CallbackInfo& info);
Napi::Value P256Verify(const Napi::CallbackInfo& info);
Napi::Value P256SharedSecret(const Napi::CallbackInfo& info);
Napi::Value P256Generate(const Napi::CallbackInfo& info);
Napi::Value P256PublicPoint(const Napi::CallbackInfo& info);

// RTP and the voice transport (rtp_bindings.cc; the TransportCryptor class is transport_cryptor_wrap.h).
// Results are numbers, 0 or a byte count for success and the negated rtp::Result otherwise, so that
// malformed packets never throw; only wrong argument types do.
Napi::Value RtpResultNames(const Napi::CallbackInfo& info);
Napi::Value RtpParsePacket(const Napi::CallbackInfo& info);
Napi::Value RtpWriteHeader(const Napi::CallbackInfo& info);
Napi::Value IpDiscoveryWrite(const Napi::CallbackInfo& info);
Napi::Value IpDiscoveryParse(const Napi::CallbackInfo& info);
Napi::Value TransportSelfTest(const Napi::CallbackInfo& info);

// Audio (audio_bindings.cc; the OpusEncoder, OpusDecoder, JitterBuffer and AudioProcessor classes are
// audio_wraps.h).
Napi::Value AudioResultNames(const Napi::CallbackInfo& info);
Napi::Value AudioSelfTest(const Napi::CallbackInfo& info);

} // namespace sdkpp::addon
