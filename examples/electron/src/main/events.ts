import type { Client } from 'sdkpp';

import type { BridgeEvent } from '../shared/api.js';
import { audioDevicesView, friendsView, lobbyView, messageView, sessionView } from './views.js';

/**
 * Pushes what the UI shows as it changes: the session on every status change, the whole friends panel when
 * a friend, request or presence changes, each new message, lobby membership, and the audio devices.
 * Returns the function that stops it.
 */
export function forwardEvents(client: Client, emit: (event: BridgeEvent) => void): () => void {
  const session = (): void => {
    emit({ type: 'session', session: sessionView(client) });
  };
  const friends = (): void => {
    emit({ type: 'friends', friends: friendsView(client) });
  };
  const message = (messageId: string): void => {
    const handle = client.getMessageHandle(messageId);
    if (handle) emit({ type: 'message', message: messageView(handle) });
  };
  const lobby = (lobbyId: string): void => {
    const handle = client.getLobbyHandle(lobbyId);
    if (handle) emit({ type: 'lobby', lobby: lobbyView(handle) });
  };
  const lobbyClosed = (lobbyId: string): void => {
    emit({ type: 'lobbyClosed', lobbyId });
  };
  const audioDevices = (): void => {
    audioDevicesView(client).then(
      (devices) => {
        emit({ type: 'audioDevices', devices });
      },
      () => undefined, // the client is going away
    );
  };

  client.on('statusChanged', session);
  client.on('relationshipCreated', friends);
  client.on('relationshipDeleted', friends);
  client.on('relationshipGroupsUpdated', friends);
  client.on('userUpdated', friends);
  client.on('messageCreated', message);
  client.on('lobbyCreated', lobby);
  client.on('lobbyUpdated', lobby);
  client.on('lobbyMemberAdded', lobby);
  client.on('lobbyMemberUpdated', lobby);
  client.on('lobbyMemberRemoved', lobby);
  client.on('lobbyDeleted', lobbyClosed);
  client.on('devicesChanged', audioDevices);
  client.on('audioDeviceLost', audioDevices);
  return () => {
    client.off('statusChanged', session);
    client.off('relationshipCreated', friends);
    client.off('relationshipDeleted', friends);
    client.off('relationshipGroupsUpdated', friends);
    client.off('userUpdated', friends);
    client.off('messageCreated', message);
    client.off('lobbyCreated', lobby);
    client.off('lobbyUpdated', lobby);
    client.off('lobbyMemberAdded', lobby);
    client.off('lobbyMemberUpdated', lobby);
    client.off('lobbyMemberRemoved', lobby);
    client.off('lobbyDeleted', lobbyClosed);
    client.off('devicesChanged', audioDevices);
    client.off('audioDeviceLost', audioDevices);
  };
}
