import { SIGNATURE_HEADER } from '@sdkpp/protocol';

import type { EmulatorLog } from '../log.js';
import type { EmulatorStore } from '../store/Store.js';
import { postSigned } from '../webhooks/signedPost.js';
import type { WebhookEvents } from '../webhooks/WebhookEvents.js';

/** How long each check may take. */
const CHECK_TIMEOUT_MS = 5000;

/** What the check reads: the application and a fresh id (store), the signing key (webhooks), the log. */
export interface EndpointCheckDeps {
  readonly store: EmulatorStore;
  readonly webhooks: WebhookEvents;
  readonly log: EmulatorLog;
}

/**
 * Checks an interactions endpoint the way the developer portal does before saving it: a signed PING must be
 * answered 200 with `{"type": 1}`, and the same PING with a wrong signature must be refused with 401 (an
 * endpoint that accepts unsigned requests would take anyone's). Throws a RangeError saying which failed.
 */
export async function verifyInteractionsEndpoint(url: string, ctx: EndpointCheckDeps): Promise<void> {
  const body = JSON.stringify({
    id: ctx.store.nextId(),
    application_id: ctx.store.state.application.id,
    type: 1,
    version: 1,
    token: 'ping',
  });
  const send = async (headers: Record<string, string>): Promise<{ status: number; text: string }> => {
    const answer = await postSigned(url, body, headers, CHECK_TIMEOUT_MS, 'interactions');
    if ('error' in answer) {
      const problem =
        answer.status === undefined
          ? `the interactions endpoint could not be reached: ${answer.error}`
          : `the interactions endpoint check failed: ${answer.error}`;
      ctx.log.line('interactions', problem);
      throw new RangeError(problem);
    }
    return answer;
  };
  const signed = ctx.webhooks.signedHeaders(body);
  const ok = await send(signed);
  let pong = false;
  try {
    pong = ok.status === 200 && (JSON.parse(ok.text) as { type?: unknown }).type === 1;
  } catch {
    pong = false;
  }
  if (!pong)
    throw new RangeError(
      `the interactions endpoint must answer a signed PING with 200 {"type":1} (it answered ${ok.status})`,
    );
  const flipped = (signed[SIGNATURE_HEADER] ?? '').replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const forged = await send({ ...signed, [SIGNATURE_HEADER]: flipped });
  if (forged.status !== 401) {
    throw new RangeError(
      `the interactions endpoint must refuse a wrongly signed request with 401 (it answered ${forged.status})`,
    );
  }
  ctx.log.line(
    'interactions',
    'the interactions endpoint answered the signed PING and refused the forged one',
  );
}
