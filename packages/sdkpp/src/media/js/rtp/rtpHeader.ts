import type { CheckedRtpHeader } from '../../rtp/args.js';
import type { RtpHeader, RtpLayout, RtpResultCode } from '../../rtp/types.js';

// The JS twin of native/core/rtp/rtp_header.cc: the same checks in the same order, so both engines
// give the same code for the same bytes.

/** A clear header read from a packet, with the P bit as `paddingSize` 1 until the count is known. */
export interface ClearHeader {
  readonly header: RtpHeader;
  /** 12 + 4*CC + (X ? 4 : 0). */
  readonly clearLength: number;
}

/** Writes the clear header (fixed part, CSRCs, extension preamble) at the start of `out`. */
export function writeClearHeader(header: CheckedRtpHeader, out: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const hasExtension = header.extensionProfile !== null;
  view.setUint8(
    0,
    0x80 | (header.paddingSize > 0 ? 0x20 : 0) | (hasExtension ? 0x10 : 0) | header.csrcs.length,
  );
  view.setUint8(1, (header.marker ? 0x80 : 0) | header.payloadType);
  view.setUint16(2, header.sequence);
  view.setUint32(4, header.timestamp);
  view.setUint32(8, header.ssrc);
  let offset = 12;
  for (const csrc of header.csrcs) {
    view.setUint32(offset, csrc);
    offset += 4;
  }
  if (header.extensionProfile !== null) {
    view.setUint16(offset, header.extensionProfile);
    view.setUint16(offset + 2, header.extensionBody.length / 4);
    offset += 4;
  }
  return offset;
}

/** Reads the clear header; the body (extension, payload, padding) is not looked at. */
export function parseClearHeader(packet: Uint8Array): ClearHeader | RtpResultCode {
  if (packet.length < 12) return 'ERR_RTP_TRUNCATED_HEADER';
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  const first = view.getUint8(0);
  if (first >> 6 !== 2) return 'ERR_RTP_BAD_VERSION';
  const csrcCount = first & 0x0f;
  let offset = 12;
  if (packet.length - offset < 4 * csrcCount) return 'ERR_RTP_CSRC_PAST_END';
  const csrcs: number[] = [];
  for (let i = 0; i < csrcCount; i++, offset += 4) csrcs.push(view.getUint32(offset));
  let extension: RtpHeader['extension'] = null;
  if ((first & 0x10) !== 0) {
    if (packet.length - offset < 4) return 'ERR_RTP_EXTENSION_PAST_END';
    extension = { profile: view.getUint16(offset), words: view.getUint16(offset + 2) };
    offset += 4;
  }
  const second = view.getUint8(1);
  return {
    header: {
      marker: (second & 0x80) !== 0,
      payloadType: second & 0x7f,
      sequence: view.getUint16(2),
      timestamp: view.getUint32(4),
      ssrc: view.getUint32(8),
      csrcs,
      extension,
      paddingSize: (first & 0x20) !== 0 ? 1 : 0,
    },
    clearLength: offset,
  };
}

/**
 * Splits what follows the clear header (extension body ‖ payload ‖ padding), once readable. Offsets are
 * relative to `body`.
 */
export function splitBody(header: RtpHeader, body: Uint8Array): RtpLayout | RtpResultCode {
  const extensionLength = header.extension === null ? 0 : 4 * header.extension.words;
  if (body.length < extensionLength) return 'ERR_RTP_EXTENSION_PAST_END';
  let payloadLength = body.length - extensionLength;
  let paddingSize = 0;
  if (header.paddingSize > 0) {
    // The count byte is last and counts itself (RFC 3550 §5.1); 0 is not a valid count.
    const count = payloadLength === 0 ? 0 : (body[body.length - 1] ?? 0);
    if (count === 0 || count > payloadLength) return 'ERR_RTP_BAD_PADDING';
    paddingSize = count;
    payloadLength -= count;
  }
  return {
    header: { ...header, paddingSize },
    extensionOffset: 0,
    extensionLength,
    payloadOffset: extensionLength,
    payloadLength,
  };
}

/** A whole unencrypted RTP packet; offsets are from the start of `packet`. */
export function parseRtpPacket(packet: Uint8Array): RtpLayout | RtpResultCode {
  const clear = parseClearHeader(packet);
  if (typeof clear === 'string') return clear;
  const layout = splitBody(clear.header, packet.subarray(clear.clearLength));
  if (typeof layout === 'string') return layout;
  return {
    ...layout,
    extensionOffset: layout.extensionOffset + clear.clearLength,
    payloadOffset: layout.payloadOffset + clear.clearLength,
  };
}
