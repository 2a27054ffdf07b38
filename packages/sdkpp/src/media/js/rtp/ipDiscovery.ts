import { MediaEngineError } from '../../MediaEngineError.js';
import { bytesArg, checkIpDiscoveryPacket, isIpDiscoveryAddress } from '../../rtp/args.js';
import {
  IP_DISCOVERY_SIZE,
  type IpDiscoveryDecodeResult,
  type IpDiscoveryPacket,
  type RtpResultCode,
} from '../../rtp/types.js';

// The JS twin of native/core/rtp/ip_discovery.cc (wire-protocols.md §2.4):
//   u16 type (1 request, 2 response) | u16 length = 70 | u32 SSRC | 64-byte NUL-terminated address | u16 port

const LENGTH_FIELD = 70;
const ADDRESS_OFFSET = 8;
const ADDRESS_FIELD = 64;
const PORT_OFFSET = ADDRESS_OFFSET + ADDRESS_FIELD;

/** Writes the 74-byte packet into `out` and returns 74; see `MediaEngine.encodeIpDiscovery`. */
export function encodeIpDiscovery(packet: IpDiscoveryPacket, out: Uint8Array): number {
  const checked = checkIpDiscoveryPacket(packet);
  const target = bytesArg(out, 'out');
  if (target.length < IP_DISCOVERY_SIZE) {
    throw new MediaEngineError(
      'ERR_RTP_OUTPUT_TOO_SMALL',
      `An IP discovery packet needs ${IP_DISCOVERY_SIZE} bytes, "out" has ${target.length}`,
    );
  }
  const view = new DataView(target.buffer, target.byteOffset, IP_DISCOVERY_SIZE);
  target.fill(0, 0, IP_DISCOVERY_SIZE);
  view.setUint16(0, checked.type === 'request' ? 1 : 2);
  view.setUint16(2, LENGTH_FIELD);
  view.setUint32(4, checked.ssrc);
  target.set(Buffer.from(checked.address, 'latin1'), ADDRESS_OFFSET);
  view.setUint16(PORT_OFFSET, checked.port);
  return IP_DISCOVERY_SIZE;
}

/** Reads a request or response; malformed bytes give a code, never an exception. */
export function decodeIpDiscovery(bytes: Uint8Array): IpDiscoveryDecodeResult {
  const input = bytesArg(bytes, 'packet');
  const fail = (code: RtpResultCode): IpDiscoveryDecodeResult => ({ ok: false, code });
  if (input.length !== IP_DISCOVERY_SIZE) return fail('ERR_IP_DISCOVERY_BAD_LENGTH');
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  if (view.getUint16(2) !== LENGTH_FIELD) return fail('ERR_IP_DISCOVERY_BAD_LENGTH');
  const typeField = view.getUint16(0);
  if (typeField !== 1 && typeField !== 2) return fail('ERR_IP_DISCOVERY_BAD_TYPE');
  const type = typeField === 1 ? 'request' : 'response';
  const field = input.subarray(ADDRESS_OFFSET, ADDRESS_OFFSET + ADDRESS_FIELD);
  const end = field.indexOf(0);
  if (end < 0) return fail('ERR_IP_DISCOVERY_BAD_ADDRESS');
  const address = Buffer.from(field.subarray(0, end)).toString('latin1');
  if (!isIpDiscoveryAddress(type, address)) return fail('ERR_IP_DISCOVERY_BAD_ADDRESS');
  return {
    ok: true,
    packet: { type, ssrc: view.getUint32(4), address, port: view.getUint16(PORT_OFFSET) },
  };
}
