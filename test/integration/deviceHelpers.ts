import type { Emulator } from '../../packages/emulator/src/index.js';

/** The hidden fields of a page's form, as a browser posts them. */
function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[match[1] ?? ''] = (match[2] ?? '').replace(/&amp;/g, '&');
  }
  return fields;
}

async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * A player answers a device code on the emulator's verification page over HTTP (the form posts a browser
 * makes): enters `userCode`, then approves as `approveAs` (a user id) or denies. Resolves with the last page.
 */
export async function answerDeviceCode(
  emulator: Emulator,
  userCode: string,
  answer: { approveAs: string } | 'deny',
): Promise<string> {
  const form = await (await fetch(`${emulator.http}/activate`)).text();
  const consent = await postForm(`${emulator.http}/activate`, { ...hiddenFields(form), user_code: userCode });
  if (consent.status !== 200) throw new Error(`the code was refused (${consent.status})`);
  const choice = answer === 'deny' ? { action: 'deny' } : { action: 'approve', user_id: answer.approveAs };
  const done = await postForm(`${emulator.http}/activate/decide`, {
    ...hiddenFields(await consent.text()),
    ...choice,
  });
  if (done.status !== 200) throw new Error(`the answer was refused (${done.status})`);
  return done.text();
}
