import { RTP_INFO, type NativeRtpHeader } from '../addon/types.js';
import type { CheckedRtpHeader } from '../rtp/args.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { RTP_RESULTS, type RtpLayout, type RtpResultCode, type TransportOpenResult } from '../rtp/types.js';

// Conversions between the addon's numeric shapes (negated result codes, the RTP_INFO array) and the
// MediaEngine's objects. The addon stays object-free per packet; the objects are made here.

/** The code of a negated native result (`-code`). */
export function resultCode(negated: number): RtpResultCode {
  const name = RTP_RESULTS[-negated];
  return name === undefined || name === 'OK' ? 'ERR_RTP_BACKEND' : name;
}

/** Throws the error a failed native write stands for. */
export function throwResult(negated: number, what: string): never {
  const code = resultCode(negated);
  switch (code) {
    case 'ERR_RTP_INVALID_HEADER':
    case 'ERR_RTP_OUTPUT_TOO_SMALL':
    case 'ERR_RTP_OVERLAPPING_BUFFERS':
    case 'ERR_IP_DISCOVERY_BAD_TYPE':
    case 'ERR_IP_DISCOVERY_BAD_ADDRESS':
      throw new MediaEngineError(code, `${what} failed (${code})`);
    default:
      throw new MediaEngineError('ERR_RTP_BACKEND', `${what}: the native engine failed (${code})`);
  }
}

/** The addon's header shape. */
export function toNativeHeader(header: CheckedRtpHeader): NativeRtpHeader {
  return {
    marker: header.marker,
    payloadType: header.payloadType,
    sequence: header.sequence,
    timestamp: header.timestamp,
    ssrc: header.ssrc,
    csrcs: header.csrcs,
    extensionProfile: header.extensionProfile,
    paddingSize: header.paddingSize,
  };
}

/** The layout the addon wrote into `info`. */
export function layoutFromInfo(info: Uint32Array): RtpLayout {
  return {
    header: headerFromInfo(info),
    extensionOffset: info[RTP_INFO.extensionOffset] ?? 0,
    extensionLength: info[RTP_INFO.extensionSize] ?? 0,
    payloadOffset: info[RTP_INFO.payloadOffset] ?? 0,
    payloadLength: info[RTP_INFO.payloadSize] ?? 0,
  };
}

/**
 * What TransportCryptor.open returns for an opened packet, as one object literal built straight from the
 * array: the spread of a layout object and a closure per field cost about a microsecond per packet.
 */
export function openedFromInfo(info: Uint32Array): TransportOpenResult {
  return {
    ok: true,
    nonce: info[RTP_INFO.nonce] ?? 0,
    header: headerFromInfo(info),
    extensionOffset: info[RTP_INFO.extensionOffset] ?? 0,
    extensionLength: info[RTP_INFO.extensionSize] ?? 0,
    payloadOffset: info[RTP_INFO.payloadOffset] ?? 0,
    payloadLength: info[RTP_INFO.payloadSize] ?? 0,
  };
}

function headerFromInfo(info: Uint32Array): RtpLayout['header'] {
  const csrcCount = info[RTP_INFO.csrcCount] ?? 0;
  const csrcs: number[] = [];
  for (let i = 0; i < csrcCount; i++) csrcs.push(info[RTP_INFO.csrcs + i] ?? 0);
  return {
    marker: info[RTP_INFO.marker] !== 0,
    payloadType: info[RTP_INFO.payloadType] ?? 0,
    sequence: info[RTP_INFO.sequence] ?? 0,
    timestamp: info[RTP_INFO.timestamp] ?? 0,
    ssrc: info[RTP_INFO.ssrc] ?? 0,
    csrcs,
    extension:
      info[RTP_INFO.hasExtension] !== 0
        ? { profile: info[RTP_INFO.extensionProfile] ?? 0, words: info[RTP_INFO.extensionWords] ?? 0 }
        : null,
    paddingSize: info[RTP_INFO.paddingSize] ?? 0,
  };
}
