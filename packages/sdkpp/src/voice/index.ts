// The `sdkpp/voice` entry: one voice connection (voice gateway, UDP transport, DAVE) without the Client's
// lobbies and calls around it. Games use calls through `sdkpp`; this is for tools that stand in for a
// chat-app user in a voice channel (the emulator's `joinVoiceChannel`), where a call has no lobby.
export { VoiceConnection } from './connection/VoiceConnection.js';
export type {
  VoiceAudioSettings,
  VoiceConnectionEvents,
  VoiceConnectionOptions,
  VoiceConnectionState,
} from './connection/VoiceConnection.js';
export type { PlayoutSink } from './connection/TransportAudio.js';
export type { LogWriter } from '../logging/index.js';
export type { InboundAudioState } from './connection/InboundAudioWatchdog.js';
export type {
  VoiceGatewayEnd,
  VoiceIdentity,
  VoiceSocket,
  VoiceSocketFactory,
} from './gateway/VoiceGatewayClient.js';
