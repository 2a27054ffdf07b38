/** A page's form as browser.ts reads it: where it posts and its hidden fields. */
interface PageForm {
  action: string;
  fields: Map<string, string>;
}

/** The path of the device verification page (`verification_uri`). */
const ACTIVATE_PATH = '/activate';

/** Whether `url` is the emulator's device verification page, which the opener answers differently. */
export function isDeviceVerificationUrl(url: URL): boolean {
  return url.pathname === ACTIVATE_PATH;
}

async function post(url: URL, fields: Iterable<[string, string]>): Promise<{ status: number; html: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([...fields]).toString(),
    redirect: 'manual',
  });
  return { status: response.status, html: await response.text() };
}

/**
 * Plays `user` on the device verification page opened at `verification_uri_complete`: confirms the prefilled
 * code, then approves (`authorize`) or denies (`cancel`) as that user. Rejects with the page's message when
 * the code or the answer is refused. `parse` reads a page's form (browser.ts's).
 */
export async function answerDeviceVerification(
  url: URL,
  user: { id: string },
  action: 'authorize' | 'cancel',
  parse: (html: string) => PageForm | null,
  message: (html: string) => string,
): Promise<void> {
  const userCode = url.searchParams.get('user_code');
  if (userCode === null) throw new Error('browserAs: the verification URL has no user_code');
  const page = await fetch(url, { redirect: 'manual' });
  const codeForm = parse(await page.text());
  if (page.status !== 200 || !codeForm)
    throw new Error(`browserAs: the verification page failed (${page.status})`);
  const entered = await post(new URL(codeForm.action, url), [...codeForm.fields, ['user_code', userCode]]);
  const consent = parse(entered.html);
  if (entered.status !== 200 || !consent) {
    throw new Error(`browserAs: the code was refused (${entered.status}): ${message(entered.html)}`);
  }
  const answer: [string, string][] =
    action === 'authorize'
      ? [
          ['user_id', user.id],
          ['action', 'approve'],
        ]
      : [['action', 'deny']];
  const decided = await post(new URL(consent.action, url), [...consent.fields, ...answer]);
  if (decided.status !== 200) {
    throw new Error(`browserAs: the answer was refused (${decided.status}): ${message(decided.html)}`);
  }
}
