import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { Call, CallStatus, type Client } from 'sdkpp';

import type { Playback } from './audioFiles.js';
import { groupDigits, say } from './print.js';

/** What one participant does in the call. */
export interface CallPlan {
  /** The lobby whose call to join. */
  readonly lobbySecret: string;
  /** What to play into the call once someone else is in it. */
  readonly playback: Playback;
  /** The WAV file that records what this participant hears. */
  readonly record: string;
  /** Seconds to stay once someone else is in the call. */
  readonly seconds: number;
  /** Seconds to listen before playing (to answer rather than talk at the same time); default 0. */
  readonly answerAfterSeconds?: number;
  /** Seconds to wait for someone else to join. */
  readonly waitSeconds: number;
  /** Print every change seen in the call (participants, speaking, privacy code), or only the milestones. */
  readonly narrate: boolean;
}

/**
 * How long to let a new epoch settle before speaking. A member that commits a join holds the new group at
 * once, but the joiner still has to process its Welcome, and senders switch to the new keys only when the
 * transition executes (after every member said it is ready); frames sent before that are lost to the
 * joiner. The SDK does not announce the transition, so the sample gives it this long.
 */
const EPOCH_SETTLE_MS = 1000;

/** Longest extra time the recording runs while someone is still speaking after `seconds`. */
const MAX_OVERTIME_MS = 10_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(20);
  }
}

/** Watches a call and tells what changes: who joins and leaves, who speaks, and each new privacy code. */
class CallObserver {
  readonly speaking = new Set<string>();
  #privacyCode = '';
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly client: Client,
    private readonly call: Call,
    private readonly who: string,
    narrate: boolean,
  ) {
    const tell = narrate ? (line: string): void => say(who, line) : (): void => undefined;
    call.on('statusChanged', (status) => {
      tell(`call status → ${Call.statusToString(status)}`);
    });
    call.on('participantChanged', (userId, added) => {
      tell(
        `${this.name(userId)} ${added ? 'joined' : 'left'} the call (${this.call.getParticipants().length} in it)`,
      );
    });
    call.on('speakingStatusChanged', (userId, isSpeaking) => {
      if (isSpeaking) this.speaking.add(userId);
      else this.speaking.delete(userId);
      tell(`${this.name(userId)} ${isSpeaking ? 'is speaking' : 'stopped speaking'}`);
    });
    // The SDK has no event for a new MLS epoch; the privacy code is read as often as a frame is sent.
    this.#timer = setInterval(() => {
      const code = call.getPrivacyCode();
      if (code === '' || code === this.#privacyCode) return;
      this.#privacyCode = code;
      tell(
        `end-to-end encrypted (DAVE), privacy code ${groupDigits(code)} for the ${this.call.getParticipants().length} in the call`,
      );
    }, 20);
  }

  name(userId: string): string {
    return this.client.getUser(userId)?.displayName ?? userId;
  }

  /** Everybody else in the call. */
  others(): string[] {
    const self = this.client.getCurrentUser()?.id;
    return this.call.getParticipants().filter((id) => id !== self);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** Whether every other participant is in this participant's MLS group: their verification codes exist. */
async function sharesKeysWith(call: Call, others: string[]): Promise<boolean> {
  try {
    await Promise.all(others.map((id) => call.getVerificationCode(id)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Joins the lobby's call with a WAV file as the speaker, waits for someone else and for a shared
 * end-to-end encrypted epoch, plays the WAV file as the microphone, records for `seconds` (longer while
 * someone still speaks), then leaves. Resolves with the names of those who were in the call.
 */
export async function talkInLobbyCall(client: Client, who: string, plan: CallPlan): Promise<string[]> {
  const lobbyId = await client.createOrJoinLobby(plan.lobbySecret);
  const members = client.getLobbyHandle(lobbyId)?.lobbyMemberIds.length ?? 1;
  say(who, `in lobby ${lobbyId} (${members} member${members === 1 ? '' : 's'}); joining its voice call`);

  const record = path.resolve(plan.record);
  mkdirSync(path.dirname(record), { recursive: true });
  await client.setOutputDevice(`wav-out:${record}`);
  await client.setInputDevice('null');
  const call = client.startCall(lobbyId);
  const observer = new CallObserver(client, call, who, plan.narrate);
  try {
    await until(() => call.getStatus() === CallStatus.Connected, 20_000, 'the call to connect');
    say(
      who,
      `connected; in the call: ${call
        .getParticipants()
        .map((id) => observer.name(id))
        .join(', ')}`,
    );
    if (observer.others().length === 0) {
      say(
        who,
        `waiting up to ${plan.waitSeconds} s for someone to join (same --lobby-secret, another terminal)`,
      );
    }
    await until(() => observer.others().length > 0, plan.waitSeconds * 1000, 'someone to join the call');
    await until(() => sharesKeysWith(call, observer.others()), 20_000, 'a shared end-to-end encrypted epoch');
    await sleep(EPOCH_SETTLE_MS);
    const peers = observer.others();
    for (const peer of peers) {
      const code = await call.getVerificationCode(peer);
      say(who, `verification code with ${observer.name(peer)}: ${groupDigits(code)} (compare it out loud)`);
    }

    const start = Date.now();
    if (plan.answerAfterSeconds !== undefined) await sleep(plan.answerAfterSeconds * 1000);
    await client.setInputDevice(`wav-in:${plan.playback.file}`);
    say(
      who,
      `playing ${path.basename(plan.playback.file)} (${plan.playback.seconds.toFixed(1)} s) into the call`,
    );
    const played = Date.now() + plan.playback.seconds * 1000;
    const end = start + plan.seconds * 1000;
    const heard = new Set(peers);
    while (Date.now() < end) {
      for (const id of observer.others()) heard.add(id);
      // Alone again after our own playback: nobody is left to record.
      if (Date.now() > played && observer.others().length === 0) break;
      await sleep(50);
    }
    const overtime = Date.now() + MAX_OVERTIME_MS;
    while (observer.others().some((id) => observer.speaking.has(id)) && Date.now() < overtime)
      await sleep(50);
    return [...heard].map((id) => observer.name(id));
  } finally {
    observer.stop();
    await client.endCall(lobbyId);
    // Switching the speaker away closes the recording with its final WAV header.
    await client.setOutputDevice('null');
    await client.setInputDevice('null');
    await client.leaveLobby(lobbyId).catch(() => undefined);
  }
}
