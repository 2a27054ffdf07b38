/**
 * The voice transport's encryption modes (wire-protocols.md §2.6), in order of preference: AES-256-GCM
 * when the server offers it, XChaCha20-Poly1305 always available.
 */
export const TRANSPORT_ENCRYPTION_MODES = [
  'aead_aes256_gcm_rtpsize',
  'aead_xchacha20_poly1305_rtpsize',
] as const;

/** A transport encryption mode by its voice-gateway name. */
export type TransportEncryptionMode = (typeof TRANSPORT_ENCRYPTION_MODES)[number];

/** The transport key size: op 4's `secret_key`, 32 bytes for both modes. */
export const TRANSPORT_KEY_SIZE = 32;

/** What sealing adds after the plaintext: the 16-byte tag and the 4-byte nonce counter. */
export const TRANSPORT_OVERHEAD = 20;

/** The size of an IP discovery packet, request and response alike. */
export const IP_DISCOVERY_SIZE = 74;

/** RFC 8285's one-byte header extension profile, the one the platform uses. */
export const ONE_BYTE_EXTENSION_PROFILE = 0xbede;

/** RFC 8285's two-byte header extension profile (the low 4 bits are the application's). */
export const TWO_BYTE_EXTENSION_PROFILE = 0x1000;

/** Opus's RTP payload type on the platform. */
export const OPUS_PAYLOAD_TYPE = 120;

/**
 * Every outcome of parsing or opening a packet, indexed by the native `rtp::Result` value (a test keeps
 * the two lists equal). `'OK'` is success; the rest are {@link RtpResultCode}s.
 */
export const RTP_RESULTS = [
  'OK',
  'ERR_RTP_TRUNCATED_HEADER',
  'ERR_RTP_BAD_VERSION',
  'ERR_RTP_CSRC_PAST_END',
  'ERR_RTP_EXTENSION_PAST_END',
  'ERR_RTP_BAD_PADDING',
  'ERR_RTP_PACKET_TOO_SHORT',
  'ERR_RTP_AUTHENTICATION_FAILED',
  'ERR_RTP_OUTPUT_TOO_SMALL',
  'ERR_RTP_INVALID_HEADER',
  'ERR_RTP_UNSUPPORTED_MODE',
  'ERR_RTP_INVALID_KEY_SIZE',
  'ERR_RTP_OVERLAPPING_BUFFERS',
  'ERR_RTP_BACKEND',
  'ERR_IP_DISCOVERY_BAD_TYPE',
  'ERR_IP_DISCOVERY_BAD_LENGTH',
  'ERR_IP_DISCOVERY_BAD_ADDRESS',
] as const;

/**
 * Why a packet was refused. Malformed input is a result, never an exception:
 * - `ERR_RTP_TRUNCATED_HEADER`: shorter than the 12-byte fixed header.
 * - `ERR_RTP_BAD_VERSION`: the version bits are not 2.
 * - `ERR_RTP_CSRC_PAST_END`: the CSRC count runs past the packet.
 * - `ERR_RTP_EXTENSION_PAST_END`: the extension preamble, body or an element runs past the end.
 * - `ERR_RTP_BAD_PADDING`: the P bit with a count of 0 or longer than the payload.
 * - `ERR_RTP_PACKET_TOO_SHORT`: no room for the 16-byte tag and 4-byte nonce after the header.
 * - `ERR_RTP_AUTHENTICATION_FAILED`: wrong key, wrong nonce or an altered byte.
 * - `ERR_RTP_OUTPUT_TOO_SMALL`: the caller's output buffer is short.
 * - `ERR_IP_DISCOVERY_*`: an IP discovery packet of another type, size or with an unusable address.
 * The others (`ERR_RTP_INVALID_HEADER`, `…_UNSUPPORTED_MODE`, `…_INVALID_KEY_SIZE`,
 * `…_OVERLAPPING_BUFFERS`, `…_BACKEND`) are caller mistakes, thrown as `MediaEngineError`s.
 */
export type RtpResultCode = Exclude<(typeof RTP_RESULTS)[number], 'OK'>;

/** An RTP header as read from the wire (RFC 3550 §5.1; the version is always 2). */
export interface RtpHeader {
  /** The M bit. */
  readonly marker: boolean;
  /** 0–127; 120 is Opus. */
  readonly payloadType: number;
  /** 16-bit sequence number. */
  readonly sequence: number;
  /** 32-bit timestamp (48 kHz for Opus). */
  readonly timestamp: number;
  /** The sender's 32-bit SSRC. */
  readonly ssrc: number;
  /** Up to 15 contributing sources. */
  readonly csrcs: readonly number[];
  /** The extension preamble when the X bit is set: the profile and the body's length in 32-bit words. */
  readonly extension: {
    /** The extension profile, e.g. 0xBEDE for RFC 8285's one-byte elements. */
    readonly profile: number;
    /** The body's length in 32-bit words, as the preamble states it. */
    readonly words: number;
  } | null;
  /** Bytes of padding removed from the end of the payload, the count byte included; 0 without P. */
  readonly paddingSize: number;
}

/** The header of a packet to send. Omitted fields take the platform's defaults. */
export interface RtpHeaderInit {
  /** @defaultValue false */
  readonly marker?: boolean;
  /** @defaultValue 120 (Opus) */
  readonly payloadType?: number;
  /** 0–65535. */
  readonly sequence: number;
  /** 0–2^32-1. */
  readonly timestamp: number;
  /** 0–2^32-1. */
  readonly ssrc: number;
  /** @defaultValue none; at most 15 */
  readonly csrcs?: readonly number[];
  /**
   * A header extension: its profile (e.g. `ONE_BYTE_EXTENSION_PROFILE`, 0xBEDE) and body, whole 32-bit
   * words (see `encodeExtensionElements`). In the rtpsize modes the body is encrypted with the payload.
   */
  readonly extension?: {
    /** The extension profile written in the preamble. */
    readonly profile: number;
    /** The extension elements, a whole number of 32-bit words. */
    readonly body: Uint8Array;
  };
  /** Bytes of padding to append (zeros, then the count byte), 0–255. @defaultValue 0 */
  readonly paddingSize?: number;
}

/** Where the parts of a parsed or opened packet are: offsets into the buffer the engine wrote or read. */
export interface RtpLayout {
  /** The header. */
  readonly header: RtpHeader;
  /** The extension body's offset (meaningful when `header.extension` is set). */
  readonly extensionOffset: number;
  /** The extension body's length in bytes; 0 without an extension. */
  readonly extensionLength: number;
  /** The payload's offset. */
  readonly payloadOffset: number;
  /** The payload's length, padding removed. */
  readonly payloadLength: number;
}

/** A failure: what was wrong with the input. */
export interface RtpFailure {
  /** Always false. */
  readonly ok: false;
  /** Why the input was refused. */
  readonly code: RtpResultCode;
}

/** {@link MediaEngine.parseRtpPacket}'s outcome: offsets into the packet, or why it is malformed. */
export type RtpParseResult =
  | ({
      /** The packet parsed; its layout follows. */
      readonly ok: true;
    } & RtpLayout)
  | RtpFailure;

/**
 * {@link TransportCryptor.open}'s outcome: offsets into the caller's output buffer, which holds the
 * decrypted extension body, payload and padding; or why the packet was refused.
 */
export type TransportOpenResult =
  | ({
      /** The packet authenticated and decrypted; its layout follows. */
      readonly ok: true;
      /** The sender's 32-bit nonce counter from the packet's last 4 bytes. */
      readonly nonce: number;
    } & RtpLayout)
  | RtpFailure;

/** A cryptor's counters since it was created. */
export interface TransportStats {
  /** Packets sealed. */
  readonly sealed: number;
  /** The counter the last `seal` without an explicit nonce used; 0 before the first. */
  readonly lastNonce: number;
  /** Packets opened successfully. */
  readonly opened: number;
  /** Refused packets by reason, every code present (0 when it never happened). */
  readonly failures: Readonly<Record<RtpResultCode, number>>;
}

/**
 * One voice connection's transport encryption, for one mode and key. Sealed packets are
 * `clear header ‖ ciphertext(extension body ‖ payload ‖ padding) ‖ tag ‖ nonce counter (BE32)`, where the
 * clear header (12 bytes, the CSRCs, and the extension preamble) is the AEAD's additional data. Not
 * thread-safe; one per connection.
 */
export interface TransportCryptor {
  /** The mode this cryptor was made for. */
  readonly mode: TransportEncryptionMode;

  /**
   * The size a sealed packet will have, for sizing `out`.
   * @throws MediaEngineError `ERR_RTP_INVALID_HEADER` for an impossible header.
   */
  sealedLength(header: RtpHeaderInit, payloadLength: number): number;

  /**
   * Seals one packet into `out` (a caller-owned buffer, reusable across packets).
   *
   * @param nonce - The 32-bit counter to use. Omitted, the cryptor's own counter is incremented and used
   *   (the first packet carries 1; it wraps after 2^32-1 to 0), as the platform's clients do.
   * @returns The packet's length in `out`.
   * @throws MediaEngineError `ERR_RTP_INVALID_HEADER`, `ERR_RTP_OUTPUT_TOO_SMALL`,
   *   `ERR_RTP_OVERLAPPING_BUFFERS` (the payload may only already be in `out` at its final place) or
   *   `ERR_INVALID_ARG_TYPE`.
   */
  seal(header: RtpHeaderInit, payload: Uint8Array, out: Uint8Array, nonce?: number): number;

  /**
   * Authenticates and decrypts a received packet into `out` (at least the packet's length minus 32
   * bytes). Never throws for the packet's contents: every refusal is a result, and is counted.
   * @throws MediaEngineError `ERR_INVALID_ARG_TYPE` only, for arguments that are not byte arrays.
   */
  open(packet: Uint8Array, out: Uint8Array): TransportOpenResult;

  /** See {@link TransportStats}. */
  stats(): TransportStats;
}

/** An IP discovery packet (74 bytes on the wire). */
export interface IpDiscoveryPacket {
  /** A request (the client's) or a response (the server's). */
  readonly type: 'request' | 'response';
  /** The client's SSRC, from the voice gateway's Ready. */
  readonly ssrc: number;
  /** The client's external address as the server saw it; `''` in a request. */
  readonly address: string;
  /** The client's external port; 0 in a request. */
  readonly port: number;
}

/** {@link MediaEngine.decodeIpDiscovery}'s outcome. */
export type IpDiscoveryDecodeResult =
  | {
      /** The datagram was a well-formed IP discovery packet. */
      readonly ok: true;
      /** What it carried. */
      readonly packet: IpDiscoveryPacket;
    }
  | RtpFailure;

/** True when `value` names a mode of {@link TRANSPORT_ENCRYPTION_MODES}. */
export function isTransportEncryptionMode(value: unknown): value is TransportEncryptionMode {
  return typeof value === 'string' && (TRANSPORT_ENCRYPTION_MODES as readonly string[]).includes(value);
}

/** A stats record with every failure code at 0. */
export function emptyFailureCounts(): Record<RtpResultCode, number> {
  const counts = {} as Record<RtpResultCode, number>;
  for (const code of RTP_RESULTS) if (code !== 'OK') counts[code] = 0;
  return counts;
}
