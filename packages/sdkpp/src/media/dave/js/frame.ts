import type { DaveRange, DaveResultCode } from '../types.js';

// The DAVE frame footer, as native/core/dave/frame.cc:
//   interleaved frame ‖ tag (8) ‖ ULEB128 nonce ‖ ULEB128 (offset, size)… ‖ supplemental size ‖ FA FA

/** The truncated GCM tag. */
export const TAG_SIZE = 8;
/** Tag, size byte and marker: the least a footer can be. */
export const MIN_SUPPLEMENTAL_SIZE = 11;
const MAX_SUPPLEMENTAL_SIZE = 255;
const MARKER = 0xfa;
/** Each range takes two footer bytes at least. */
export const MAX_RANGES = Math.floor((MAX_SUPPLEMENTAL_SIZE - MIN_SUPPLEMENTAL_SIZE - 1) / 2);

/** A parsed footer; offsets refer to the frame. */
export interface ParsedFrame {
  readonly interleavedLength: number;
  readonly tag: Uint8Array;
  readonly nonce: number;
  readonly ranges: readonly DaveRange[];
}

/** True for Opus's 3-byte silence frame. */
export function isOpusSilenceFrame(frame: Uint8Array): boolean {
  return frame.length === 3 && frame[0] === 0xf8 && frame[1] === 0xff && frame[2] === 0xfe;
}

/** Bytes a ULEB128 of `value` takes. */
export function leb128Size(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

function writeLeb128(value: number, out: Uint8Array, offset: number): number {
  while (value >= 0x80) {
    out[offset++] = 0x80 | (value & 0x7f);
    value = Math.floor(value / 128);
  }
  out[offset++] = value;
  return offset;
}

// One ULEB128 from bytes[start, end): [value, next offset], or null. Values beyond 2^53 are refused
// (every valid nonce and range is far below); the native reader refuses beyond 2^64.
function readLeb128(bytes: Uint8Array, start: number, end: number): [number, number] | null {
  let value = 0;
  let scale = 1;
  for (let i = start; i < end; i++) {
    const byte = bytes[i] ?? 0;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return value <= Number.MAX_SAFE_INTEGER ? [value, i + 1] : null;
    scale *= 128;
    if (scale > 2 ** 63) return null;
  }
  return null;
}

/** Checks a frame's footer before any crypto; never reads outside `frame`. */
export function parseFrame(frame: Uint8Array): ParsedFrame | DaveResultCode {
  const size = frame.length;
  if (size < MIN_SUPPLEMENTAL_SIZE) return 'ERR_DAVE_FRAME_TOO_SHORT';
  if (frame[size - 1] !== MARKER || frame[size - 2] !== MARKER) return 'ERR_DAVE_BAD_MARKER';
  const supplemental = frame[size - 3] ?? 0;
  if (supplemental < MIN_SUPPLEMENTAL_SIZE || supplemental > size) return 'ERR_DAVE_BAD_SUPPLEMENTAL_SIZE';
  const interleavedLength = size - supplemental;
  const end = size - 3;
  const nonce = readLeb128(frame, interleavedLength + TAG_SIZE, end);
  if (nonce === null || nonce[0] > 0xffffffff) return 'ERR_DAVE_BAD_NONCE';
  const ranges: DaveRange[] = [];
  let offset = nonce[1];
  let previousEnd = 0;
  while (offset < end) {
    const start = ranges.length < MAX_RANGES ? readLeb128(frame, offset, end) : null;
    const length = start === null ? null : readLeb128(frame, start[1], end);
    if (start === null || length === null) return 'ERR_DAVE_BAD_RANGES';
    if (start[0] < previousEnd || start[0] > interleavedLength || length[0] > interleavedLength - start[0]) {
      return 'ERR_DAVE_BAD_RANGES';
    }
    ranges.push({ offset: start[0], size: length[0] });
    previousEnd = start[0] + length[0];
    offset = length[1];
  }
  return {
    interleavedLength,
    tag: frame.subarray(interleavedLength, interleavedLength + TAG_SIZE),
    nonce: nonce[0],
    ranges,
  };
}

/** Checks ranges a sender asked to leave in clear, as parseFrame would on the other side. */
export function rangesValid(ranges: readonly DaveRange[], frameLength: number): boolean {
  if (ranges.length > MAX_RANGES) return false;
  let previousEnd = 0;
  for (const { offset, size } of ranges) {
    if (!Number.isInteger(offset) || !Number.isInteger(size) || offset < 0 || size < 0) return false;
    if (offset < previousEnd || offset > frameLength || size > frameLength - offset) return false;
    previousEnd = offset + size;
  }
  return true;
}

/** The footer's size, or null when it would not fit the one-byte supplemental size. */
export function footerSize(nonce: number, ranges: readonly DaveRange[]): number | null {
  let total = MIN_SUPPLEMENTAL_SIZE + leb128Size(nonce);
  for (const { offset, size } of ranges) total += leb128Size(offset) + leb128Size(size);
  return total <= MAX_SUPPLEMENTAL_SIZE ? total : null;
}

/** Writes nonce ‖ ranges ‖ size ‖ marker after the tag at `tagOffset`. */
export function writeFooterAfterTag(
  nonce: number,
  ranges: readonly DaveRange[],
  size: number,
  out: Uint8Array,
  tagOffset: number,
): void {
  let offset = writeLeb128(nonce, out, tagOffset + TAG_SIZE);
  for (const range of ranges) {
    offset = writeLeb128(range.offset, out, offset);
    offset = writeLeb128(range.size, out, offset);
  }
  out[offset++] = size;
  out[offset++] = MARKER;
  out[offset] = MARKER;
}

/** The AES-GCM IV of a DAVE nonce: eight zero bytes, then the nonce little-endian. */
export function nonceToIv(nonce: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32LE(nonce >>> 0, 8);
  return iv;
}

/** The clear ranges' bytes concatenated: the AEAD's additional data. */
export function clearBytes(input: Uint8Array, ranges: readonly DaveRange[]): Buffer {
  return Buffer.concat(ranges.map(({ offset, size }) => input.subarray(offset, offset + size)));
}

/** The spans between the clear ranges (the encrypted ones), in order, over `length` bytes. */
export function encryptedSpans(ranges: readonly DaveRange[], length: number): DaveRange[] {
  const spans: DaveRange[] = [];
  let position = 0;
  for (const { offset, size } of ranges) {
    if (offset > position) spans.push({ offset: position, size: offset - position });
    position = offset + size;
  }
  if (length > position) spans.push({ offset: position, size: length - position });
  return spans;
}

/** True when `a` and `b` share memory anywhere other than starting at the same address. */
export function overlapsPartially(a: Uint8Array, b: Uint8Array, bLength: number): boolean {
  if (a.buffer !== b.buffer || a.length === 0 || bLength === 0) return false;
  const start = a.byteOffset;
  const other = b.byteOffset;
  return start !== other && start < other + bLength && other < start + a.length;
}
