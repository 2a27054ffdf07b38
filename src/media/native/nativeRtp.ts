import { RTP_INFO, type NativeRtpHeader } from '../addon/types.js';
import type { CheckedRtpHeader } from '../rtp/args.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { RTP_RESULTS, type RtpLayout, type RtpResultCode } from '../rtp/types.js';

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
  const at = (index: number): number => info[index] ?? 0;
  const csrcs: number[] = [];
  for (let i = 0; i < at(RTP_INFO.csrcCount); i++) csrcs.push(at(RTP_INFO.csrcs + i));
  return {
    header: {
      marker: at(RTP_INFO.marker) !== 0,
      payloadType: at(RTP_INFO.payloadType),
      sequence: at(RTP_INFO.sequence),
      timestamp: at(RTP_INFO.timestamp),
      ssrc: at(RTP_INFO.ssrc),
      csrcs,
      extension:
        at(RTP_INFO.hasExtension) !== 0
          ? { profile: at(RTP_INFO.extensionProfile), words: at(RTP_INFO.extensionWords) }
          : null,
      paddingSize: at(RTP_INFO.paddingSize),
    },
    extensionOffset: at(RTP_INFO.extensionOffset),
    extensionLength: at(RTP_INFO.extensionSize),
    payloadOffset: at(RTP_INFO.payloadOffset),
    payloadLength: at(RTP_INFO.payloadSize),
  };
}
