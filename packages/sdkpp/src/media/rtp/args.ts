import { isUint8Array } from 'node:util/types';

import { MediaEngineError } from '../MediaEngineError.js';
import {
  isTransportEncryptionMode,
  OPUS_PAYLOAD_TYPE,
  TRANSPORT_ENCRYPTION_MODES,
  TRANSPORT_KEY_SIZE,
  type IpDiscoveryPacket,
  type RtpHeaderInit,
  type TransportEncryptionMode,
} from './types.js';

// Argument checks shared by both engines, so that a wrong call fails with the same code and message
// whichever engine runs. The addon re-checks everything itself; these run first for the wording.

/** A header with every default filled in and every field checked. */
export interface CheckedRtpHeader {
  /** The M bit. */
  readonly marker: boolean;
  /** 0–127, 120 when omitted. */
  readonly payloadType: number;
  /** 0–65535. */
  readonly sequence: number;
  /** 0–2^32-1. */
  readonly timestamp: number;
  /** 0–2^32-1. */
  readonly ssrc: number;
  /** 0–15 entries. */
  readonly csrcs: readonly number[];
  /** `null` without an extension. */
  readonly extensionProfile: number | null;
  /** Empty without an extension. */
  readonly extensionBody: Uint8Array;
  /** 0–255. */
  readonly paddingSize: number;
}

const EMPTY = new Uint8Array(0);

/** Throws `ERR_INVALID_ARG_TYPE` unless `value` is a Uint8Array (a Buffer included). */
export function bytesArg(value: unknown, name: string): Uint8Array {
  if (!isUint8Array(value)) {
    throw new MediaEngineError(
      'ERR_INVALID_ARG_TYPE',
      `The "${name}" argument must be a Buffer or Uint8Array`,
    );
  }
  return value;
}

/** An integer in 0..max, else `ERR_INVALID_ARG_TYPE` (not a number) or `rangeCode`. */
export function integerArg(
  value: unknown,
  name: string,
  max: number,
  rangeCode: 'ERR_RTP_INVALID_HEADER' = 'ERR_RTP_INVALID_HEADER',
): number {
  if (typeof value !== 'number') {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', `The "${name}" field must be a number`);
  }
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new MediaEngineError(rangeCode, `The "${name}" field must be an integer from 0 to ${max}`);
  }
  return value;
}

/** Checks a header to send and fills in its defaults. */
export function checkRtpHeader(value: unknown): CheckedRtpHeader {
  if (typeof value !== 'object' || value === null) {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "header" argument must be an object');
  }
  const header = value as Partial<RtpHeaderInit>;
  const csrcs = header.csrcs ?? [];
  if (!Array.isArray(csrcs)) {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "csrcs" field must be an array');
  }
  if (csrcs.length > 15) {
    throw new MediaEngineError('ERR_RTP_INVALID_HEADER', 'An RTP header holds at most 15 CSRCs');
  }
  let extensionProfile: number | null = null;
  let extensionBody: Uint8Array = EMPTY;
  if (header.extension !== undefined) {
    extensionProfile = integerArg(header.extension.profile, 'extension.profile', 0xffff);
    extensionBody = bytesArg(header.extension.body, 'extension.body');
    if (extensionBody.length % 4 !== 0 || extensionBody.length / 4 > 0xffff) {
      throw new MediaEngineError(
        'ERR_RTP_INVALID_HEADER',
        'An extension body must be whole 32-bit words, at most 65535 of them',
      );
    }
  }
  return {
    marker: header.marker === true,
    payloadType: integerArg(header.payloadType ?? OPUS_PAYLOAD_TYPE, 'payloadType', 127),
    sequence: integerArg(header.sequence, 'sequence', 0xffff),
    timestamp: integerArg(header.timestamp, 'timestamp', 0xffffffff),
    ssrc: integerArg(header.ssrc, 'ssrc', 0xffffffff),
    csrcs: csrcs.map((csrc: unknown, index) => integerArg(csrc, `csrcs[${index}]`, 0xffffffff)),
    extensionProfile,
    extensionBody,
    paddingSize: integerArg(header.paddingSize ?? 0, 'paddingSize', 255),
  };
}

/** The byte length of the clear header: 12, the CSRCs, and the extension preamble. */
export function clearHeaderLength(header: CheckedRtpHeader): number {
  return 12 + 4 * header.csrcs.length + (header.extensionProfile === null ? 0 : 4);
}

// RTP travels in UDP datagrams, so a payload near this is a caller bug; native/core refuses it too.
const MAX_PAYLOAD_LENGTH = 2 ** 24;

/**
 * What a sealed packet of this header and payload length occupies.
 * @throws MediaEngineError `ERR_RTP_INVALID_HEADER` for a payload length beyond 2^24 bytes.
 */
export function sealedLengthOf(header: CheckedRtpHeader, payloadLength: number): number {
  if (!Number.isInteger(payloadLength) || payloadLength < 0 || payloadLength > MAX_PAYLOAD_LENGTH) {
    throw new MediaEngineError(
      'ERR_RTP_INVALID_HEADER',
      `A payload length must be an integer from 0 to ${MAX_PAYLOAD_LENGTH}`,
    );
  }
  return clearHeaderLength(header) + header.extensionBody.length + payloadLength + header.paddingSize + 20;
}

/** Throws `ERR_RTP_UNSUPPORTED_MODE` or `ERR_RTP_INVALID_KEY_SIZE` as the addon does. */
export function checkTransportArgs(
  mode: unknown,
  key: unknown,
): { mode: TransportEncryptionMode; key: Uint8Array } {
  if (typeof mode !== 'string') {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "mode" argument must be a string');
  }
  if (!isTransportEncryptionMode(mode)) {
    throw new MediaEngineError(
      'ERR_RTP_UNSUPPORTED_MODE',
      `Unsupported transport encryption mode; this build supports ${TRANSPORT_ENCRYPTION_MODES.map((name) => `'${name}'`).join(', ')}`,
    );
  }
  const bytes = bytesArg(key, 'key');
  if (bytes.length !== TRANSPORT_KEY_SIZE) {
    throw new MediaEngineError(
      'ERR_RTP_INVALID_KEY_SIZE',
      `${mode} needs a ${TRANSPORT_KEY_SIZE}-byte key, got ${bytes.length} bytes`,
    );
  }
  return { mode, key: bytes };
}

/** An explicit nonce counter, or `undefined` for the cryptor's own. */
export function nonceArg(value: unknown): number | undefined {
  return value === undefined ? undefined : integerArg(value, 'nonce', 0xffffffff);
}

// The characters of dotted IPv4 and textual IPv6: anything else cannot be an address a peer can use.
const ADDRESS_TEXT = /^[0-9A-Fa-f.:]*$/;

/** True when `address` may stand in an IP discovery packet of `type` (native: ip_discovery.cc). */
export function isIpDiscoveryAddress(type: 'request' | 'response', address: string): boolean {
  return address.length <= 63 && ADDRESS_TEXT.test(address) && (type === 'request' || address.length > 0);
}

/** Checks an IP discovery packet to encode. */
export function checkIpDiscoveryPacket(value: unknown): IpDiscoveryPacket {
  if (typeof value !== 'object' || value === null) {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "packet" argument must be an object');
  }
  const packet = value as Partial<IpDiscoveryPacket>;
  const { type, address } = packet;
  if (type !== 'request' && type !== 'response') {
    throw new MediaEngineError('ERR_IP_DISCOVERY_BAD_TYPE', 'The type must be "request" or "response"');
  }
  if (typeof address !== 'string' || !isIpDiscoveryAddress(type, address)) {
    throw new MediaEngineError(
      'ERR_IP_DISCOVERY_BAD_ADDRESS',
      'The address must be an IP address of at most 63 characters (empty only in a request)',
    );
  }
  return {
    type,
    ssrc: integerArg(packet.ssrc, 'ssrc', 0xffffffff),
    address,
    port: integerArg(packet.port, 'port', 0xffff),
  };
}
