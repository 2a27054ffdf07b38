import type { VoiceConnectionState } from '../connection/VoiceConnection.js';
import type { VoiceGatewayEnd } from '../gateway/VoiceGatewayClient.js';
import { CallError, CallStatus } from './enums.js';

/** The Call status a voice connection state shows as; undefined for `closed`, which the end decides. */
export function callStatusOf(voiceState: VoiceConnectionState): CallStatus | undefined {
  switch (voiceState) {
    case 'connecting':
      return CallStatus.Connecting;
    case 'signaling':
      return CallStatus.SignalingConnected;
    case 'connected':
      return CallStatus.Connected;
    case 'reconnecting':
      return CallStatus.Reconnecting;
    case 'closed':
      return undefined;
  }
}

/**
 * The CallError a voice connection's end reports. A close before the call ever connected is a failure to
 * connect (4004 and 4017 say we may not be in it); after, it is an unexpected close.
 */
export function callErrorOfEnd(
  end: VoiceGatewayEnd | 'transport',
  code: number,
  everConnected: boolean,
): CallError {
  return end === 'transport'
    ? CallError.VoiceConnectionFailed
    : end === 'local'
      ? CallError.None
      : everConnected
        ? CallError.SignalingUnexpectedClose
        : code === 4004 || code === 4017
          ? CallError.Forbidden
          : CallError.SignalingConnectionFailed;
}
