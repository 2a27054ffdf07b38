import { MediaEngineError } from '../../MediaEngineError.js';
import { bytesArg, checkRtpHeader, clearHeaderLength } from '../../rtp/args.js';
import type { RtpHeaderInit, RtpParseResult } from '../../rtp/types.js';
import { parseRtpPacket, writeClearHeader } from './rtpHeader.js';

/** The JS engine's `MediaEngine.parseRtpPacket`. */
export function jsParseRtpPacket(packet: Uint8Array): RtpParseResult {
  const layout = parseRtpPacket(bytesArg(packet, 'packet'));
  return typeof layout === 'string' ? { ok: false, code: layout } : { ok: true, ...layout };
}

/** The JS engine's `MediaEngine.writeRtpHeader`. */
export function jsWriteRtpHeader(header: RtpHeaderInit, out: Uint8Array): number {
  const checked = checkRtpHeader(header);
  const target = bytesArg(out, 'out');
  const clearLength = clearHeaderLength(checked);
  const total = clearLength + checked.extensionBody.length;
  if (target.length < total) {
    throw new MediaEngineError(
      'ERR_RTP_OUTPUT_TOO_SMALL',
      `The header needs ${total} bytes, "out" has ${target.length}`,
    );
  }
  writeClearHeader(checked, target);
  target.set(checked.extensionBody, clearLength);
  return total;
}
