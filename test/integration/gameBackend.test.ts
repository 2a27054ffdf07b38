import { describe, expect, it } from 'vitest';

import { GameBackend, HttpError, ValidationError } from '../../packages/sdkpp/src/backend/index.js';
import { allLogLines, allSecrets, emulatorFor, userAt } from './helpers.js';

const BOT_MESSAGES = '/lobbies/:lobby_id/messages';
const MODERATION = '/lobbies/:lobby_id/messages/:message_id/moderation-metadata';

describe('GameBackend (bot token)', () => {
  it('waits out a rate limit, sending each message once; past its maximum wait it fails retryable', async () => {
    const emulator = await emulatorFor({
      rateLimits: {
        routes: {
          [`POST ${BOT_MESSAGES}`]: { limit: 1, windowMs: 500 },
          [`PUT ${MODERATION}`]: { limit: 1, windowMs: 60_000 },
        },
      },
    });
    allSecrets.add(emulator.botToken);
    const log = (line: string): void => {
      allLogLines.push(line);
    };
    const backend = new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api, logCallback: log });
    const lobby = await backend.createLobby({ members: [{ id: userAt(emulator, 0).id }] });

    const sent = await Promise.all(
      ['one', 'two', 'three'].map((content) => backend.sendLobbyMessage(lobby.id, content)),
    );
    expect(sent.map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect(emulator.requestCount('POST', BOT_MESSAGES)).toBe(3);
    const history = await backend.getLobbyMessages(lobby.id, 10);
    expect(history.map((m) => m.content)).toEqual(['three', 'two', 'one']);
    expect(history.every((m) => m.applicationId === emulator.applicationId)).toBe(true);

    const impatient = new GameBackend({
      botToken: emulator.botToken,
      apiBase: emulator.api,
      maxRateLimitWaitMs: 0,
      logCallback: log,
    });
    const first = sent[0]?.id ?? '';
    await impatient.setLobbyMessageModerationMetadata(lobby.id, first, { verdict: 'clean' });
    const refused = await impatient
      .setLobbyMessageModerationMetadata(lobby.id, first, { verdict: 'flagged' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, retryable: true });
    expect((refused as HttpError).retryAfter).toBeGreaterThan(50);
    expect(emulator.requestCount('PUT', MODERATION)).toBe(1);
    const [stored] = (await backend.getLobbyMessages(lobby.id, 10)).filter((m) => m.id === first);
    expect(stored?.moderationMetadata).toEqual({ verdict: 'clean' });
  });

  it('refuses what it can check before any request, and reports the platform errors typed', async () => {
    const emulator = await emulatorFor();
    const backend = new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api });
    expect(() => new GameBackend({ botToken: ' ' })).toThrow(ValidationError);
    await expect(backend.createLobby({ idleTimeoutSeconds: 4 })).rejects.toBeInstanceOf(ValidationError);
    await expect(
      backend.createLobby({ members: Array.from({ length: 26 }, (_, i) => ({ id: String(i + 1) })) }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      backend.setLobbyMessageModerationMetadata('1', '2', { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('POST', '/lobbies')).toBe(0);

    await expect(backend.getLobby('123')).rejects.toMatchObject({ status: 404, code: 10031 });
    const wrongToken = new GameBackend({ botToken: 'not.the.token', apiBase: emulator.api });
    await expect(wrongToken.createLobby()).rejects.toMatchObject({ status: 401 });
  });
});
