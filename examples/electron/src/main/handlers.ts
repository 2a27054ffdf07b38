import { ClientStatus, type Client } from 'sdkpp';

import type { BridgeMethods, MethodName } from '../shared/api.js';
import { signIn } from './signIn.js';
import {
  arity,
  deviceId,
  InvalidArgument,
  lobbySecret,
  messageContent,
  microphoneChunk,
  snowflake,
  username,
} from './validate.js';
import { audioDevicesView, friendsView, lobbyView, messageView, sessionView } from './views.js';

/** What the renderer may ask: each method checks its arguments, then asks the client. */
export type Handlers = {
  [K in MethodName]: (args: readonly unknown[]) => Promise<ReturnType<BridgeMethods[K]>>;
};

/** A call that needs a live session came before sign-in (or after sign-out). */
export class NotSignedIn extends Error {}
/** A sign-in was asked for while one runs. */
export class Busy extends Error {}

const MESSAGE_HISTORY = 50;
const LIVE = new Set([ClientStatus.Ready, ClientStatus.HttpWait]);

/** The method table for one client. Arguments are checked before the session state, so bad input is named. */
export function createHandlers(client: Client): Handlers {
  let signingIn: Promise<void> | undefined;

  const requireLive = (): void => {
    if (!LIVE.has(client.getStatus())) throw new NotSignedIn('sign in first');
  };

  const handlers: Handlers = {
    signIn: async (args) => {
      arity(args, 0);
      if (signingIn) throw new Busy('a sign-in is already in progress');
      if (!LIVE.has(client.getStatus())) {
        signingIn = signIn(client).finally(() => {
          signingIn = undefined;
        });
        await signingIn;
      }
      return sessionView(client);
    },
    signOut: async (args) => {
      arity(args, 0);
      await client.disconnect();
      return sessionView(client);
    },
    getSession: (args) => {
      arity(args, 0);
      return Promise.resolve(sessionView(client));
    },
    getFriends: (args) => {
      arity(args, 0);
      requireLive();
      return Promise.resolve(friendsView(client));
    },
    sendFriendRequest: async (args) => {
      const [name] = arity(args, 1);
      const checked = username(name, 'username');
      requireLive();
      await client.sendDiscordFriendRequest(checked);
      return null;
    },
    acceptFriendRequest: async (args) => {
      const [userId] = arity(args, 1);
      const checked = snowflake(userId, 'userId');
      requireLive();
      await client.acceptDiscordFriendRequest(checked);
      return null;
    },
    getDirectMessages: async (args) => {
      const [userId] = arity(args, 1);
      const checked = snowflake(userId, 'userId');
      requireLive();
      return (await client.getUserMessagesWithLimit(checked, MESSAGE_HISTORY)).map(messageView);
    },
    sendMessage: async (args) => {
      const [userId, content] = arity(args, 2);
      const to = snowflake(userId, 'userId');
      const text = messageContent(content, 'content');
      requireLive();
      return sentMessage(await client.sendUserMessage(to, text));
    },
    joinLobby: async (args) => {
      const [secret] = arity(args, 1);
      const checked = lobbySecret(secret, 'secret');
      requireLive();
      const lobby = client.getLobbyHandle(await client.createOrJoinLobby(checked));
      if (!lobby) throw new Error('the joined lobby is not in the client');
      return lobbyView(lobby);
    },
    leaveLobby: async (args) => {
      const [lobbyId] = arity(args, 1);
      const checked = snowflake(lobbyId, 'lobbyId');
      requireLive();
      await client.leaveLobby(checked);
      return null;
    },
    getLobbyMessages: async (args) => {
      const [lobbyId] = arity(args, 1);
      const checked = snowflake(lobbyId, 'lobbyId');
      requireLive();
      return (await client.getLobbyMessagesWithLimit(checked, MESSAGE_HISTORY)).map(messageView);
    },
    sendLobbyMessage: async (args) => {
      const [lobbyId, content] = arity(args, 2);
      const to = snowflake(lobbyId, 'lobbyId');
      const text = messageContent(content, 'content');
      requireLive();
      return sentMessage(await client.sendLobbyMessage(to, text));
    },
    joinVoice: (args) => {
      const [lobbyId] = arity(args, 1);
      const checked = snowflake(lobbyId, 'lobbyId');
      requireLive();
      if (!client.getCall(checked)) client.startCall(checked);
      return Promise.resolve(null);
    },
    leaveVoice: async (args) => {
      const [lobbyId] = arity(args, 1);
      const checked = snowflake(lobbyId, 'lobbyId');
      await client.endCall(checked);
      return null;
    },
    pushMicrophone: (args) => {
      const [samples, sampleRate] = arity(args, 2);
      const chunk = microphoneChunk(samples, sampleRate);
      // The SDK resamples to 48 kHz and adds it to the call's capture path (dropped while no call runs).
      client.pushAudioInput(chunk.samples, chunk.sampleRate, 1);
      return Promise.resolve(null);
    },
    getAudioDevices: async (args) => {
      arity(args, 0);
      return audioDevicesView(client);
    },
    setAudioDevices: async (args) => {
      const [input, output] = arity(args, 2);
      const inputId = deviceId(input, 'inputId');
      const outputId = deviceId(output, 'outputId');
      // Only what the main process offers: an id the page makes up (a file path behind `wav-in:`) is refused.
      const offered = await audioDevicesView(client);
      if (!offered.inputs.some((d) => d.id === inputId))
        throw new InvalidArgument(`inputId "${inputId}" is not one of the offered microphones`);
      if (!offered.outputs.some((d) => d.id === outputId))
        throw new InvalidArgument(`outputId "${outputId}" is not one of the offered speakers`);
      await client.setInputDevice(inputId);
      await client.setOutputDevice(outputId);
      return audioDevicesView(client);
    },
  };

  function sentMessage(messageId: string): ReturnType<BridgeMethods['sendMessage']> {
    const handle = client.getMessageHandle(messageId);
    if (!handle) throw new Error(`sent message ${messageId} is not in the client`);
    return messageView(handle);
  }

  return handlers;
}
