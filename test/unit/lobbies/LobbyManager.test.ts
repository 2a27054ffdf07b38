import { describe, expect, it } from 'vitest';

import type { LobbyEvents } from '../../../packages/sdkpp/src/lobbies/LobbyEvents.js';
import type { SessionContext } from '../../../packages/sdkpp/src/session/SessionContext.js';
import { ClientNotReadyError } from '../../../packages/protocol/src/errors/index.js';
import { LobbyManager } from '../../../packages/sdkpp/src/lobbies/LobbyManager.js';
import { UserStore } from '../../../packages/sdkpp/src/social/UserStore.js';
import { systemClock } from '../../../packages/protocol/src/base/Clock.js';
import { recordingLog } from '../../fakes/recordingLog.js';

const ME = '100';

/** One lobby manager fed by hand, recording what it emits and warns. */
function setup(): { lobbies: LobbyManager; events: unknown[][]; warnings: string[]; left: string[] } {
  const events: unknown[][] = [];
  const left: string[] = [];
  const { log, warnings } = recordingLog();
  const session: SessionContext<LobbyEvents> = {
    log,
    clock: systemClock,
    api: () => Promise.reject(new ClientNotReadyError()),
    requireReady: () => undefined,
    currentUserId: () => ME,
    applicationId: () => '1',
    emit: (event, ...args) => {
      events.push([event, ...args]);
    },
  };
  return {
    lobbies: new LobbyManager(session, new UserStore(), (id) => left.push(id)),
    events,
    warnings,
    left,
  };
}

const member = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  metadata: {},
  flags: 0,
  additional_name: null,
  connected: true,
  ...extra,
});
const lobby = (id: string, members: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
  id,
  application_id: '1',
  metadata: {},
  members,
  linked_channel: null,
  flags: 0,
  ...extra,
});

describe('LobbyManager', () => {
  it('takes lobbies from READY and announces each as created', () => {
    const { lobbies, events } = setup();
    lobbies.onReady({ lobbies: [lobby('10', [member(ME), member('200')])] });
    expect(events).toEqual([['lobbyCreated', '10']]);
    expect(lobbies.ids()).toEqual(['10']);
    expect(lobbies.handle('10')?.lobbyMemberIds).toEqual([ME, '200']);
  });

  it('announces member events once, and only real changes as updates', () => {
    const { lobbies, events } = setup();
    lobbies.onReady({ lobbies: [lobby('10', [member(ME)])] });
    events.length = 0;
    const add = { lobby_id: '10', application_id: '1', member: member('200') };
    lobbies.onDispatch('LOBBY_MEMBER_ADD', add);
    lobbies.onDispatch('LOBBY_MEMBER_UPDATE', add); // nothing changed
    lobbies.onDispatch('LOBBY_MEMBER_UPDATE', { ...add, member: member('200', { additional_name: 'Sir' }) });
    lobbies.onDispatch('LOBBY_MEMBER_REMOVE', add);
    lobbies.onDispatch('LOBBY_MEMBER_REMOVE', add); // already gone
    expect(events).toEqual([
      ['lobbyMemberAdded', '10', '200'],
      ['lobbyMemberUpdated', '10', '200'],
      ['lobbyMemberRemoved', '10', '200'],
    ]);
  });

  it('diffs a LOBBY_UPDATE against what it held', () => {
    const { lobbies, events } = setup();
    lobbies.onReady({ lobbies: [lobby('10', [member(ME), member('200')])] });
    events.length = 0;
    lobbies.onDispatch(
      'LOBBY_UPDATE',
      lobby('10', [member(ME, { flags: 1 }), member('300')], { metadata: { map: 'dust' } }),
    );
    expect(events).toEqual([
      ['lobbyMemberUpdated', '10', ME],
      ['lobbyMemberAdded', '10', '300'],
      ['lobbyMemberRemoved', '10', '200'],
      ['lobbyUpdated', '10'],
    ]);
    const handle = lobbies.handle('10');
    expect(handle?.metadata).toEqual({ map: 'dust' });
    expect(handle?.getLobbyMemberHandle(ME)?.canLinkLobby).toBe(true);
  });

  it('drops a lobby when the player is removed, it is deleted, or READY no longer lists it', () => {
    const { lobbies, events, left } = setup();
    lobbies.onReady({
      lobbies: [lobby('10', [member(ME)]), lobby('11', [member(ME)]), lobby('12', [member(ME)])],
    });
    const handle = lobbies.handle('10');
    events.length = 0;
    lobbies.onDispatch('LOBBY_MEMBER_REMOVE', { lobby_id: '10', member: member(ME) });
    lobbies.onDispatch('LOBBY_DELETE', { id: '11', reason: 'deleted' });
    lobbies.onDispatch('LOBBY_DELETE', { id: '11', reason: 'deleted' }); // already gone: no second event
    lobbies.onReady({ lobbies: [] });
    expect(events).toEqual([
      ['lobbyDeleted', '10'],
      ['lobbyDeleted', '11'],
      ['lobbyDeleted', '12'],
    ]);
    expect(left).toEqual(['10', '11', '12']);
    expect(handle?.isAvailable).toBe(false);
    expect(handle?.lobbyMemberIds).toEqual([]);
  });

  it('ignores malformed events with a warning, and events of lobbies it does not hold', () => {
    const { lobbies, events, warnings } = setup();
    lobbies.onDispatch('LOBBY_CREATE', { id: 'not-an-id' });
    lobbies.onDispatch('LOBBY_DELETE', null);
    lobbies.onDispatch('LOBBY_MEMBER_ADD', { lobby_id: '10', member: { id: 5 } });
    lobbies.onDispatch('LOBBY_MEMBER_ADD', { lobby_id: '99', member: member('200') });
    lobbies.onReady({ lobbies: ['junk', lobby('10', [member(ME), { id: 'x' }])] });
    expect(warnings).toHaveLength(4);
    expect(events).toEqual([['lobbyCreated', '10']]);
    expect(lobbies.handle('10')?.lobbyMemberIds).toEqual([ME]);
  });

  it('refuses to link without the CanLinkLobby flag before any request', async () => {
    const { lobbies } = setup();
    lobbies.onReady({ lobbies: [lobby('10', [member(ME)])] });
    await expect(lobbies.linkChannel('10', '500')).rejects.toThrow(/CanLinkLobby/);
    await expect(lobbies.linkChannel('11', '500')).rejects.toThrow(/not a member/);
  });
});
