/** The most of an endpoint's answer the emulator reads (an interaction response is a small JSON body). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * An endpoint's answer: its status and body text, or why there was none to use (with the status when the
 * endpoint did answer, with a redirect).
 */
export type SignedPostResult = { status: number; text: string } | { error: string; status?: number };

/**
 * POSTs a JSON body with the given (signature) headers to an application's endpoint (its interactions
 * endpoint or webhook events URL) and reads the answer, within `timeoutMs` and at most
 * {@link MAX_ANSWER_BYTES}: a slow or endless answer is cut off and reported, never held in memory whole.
 * A redirect is an error, not followed: the platform does not follow one, and following it would send the
 * signed body (an interaction's token with it) to wherever the endpoint points. `purpose` names the sender
 * in the User-Agent.
 */
export async function postSigned(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  purpose: 'interactions' | 'webhook events',
): Promise<SignedPostResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': `sdkpp-emulator (${purpose})`,
        ...headers,
      },
      body,
      signal,
      redirect: 'manual',
    });
    if (response.status >= 300 && response.status <= 399) {
      await response.body?.cancel();
      // The Location is the endpoint's to choose, so it may carry the token: it is not reported.
      return {
        error: `the endpoint answered ${response.status}, a redirect: redirects are not followed`,
        status: response.status,
      };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        const chunk: Uint8Array = next.value;
        size += chunk.byteLength;
        if (size > MAX_ANSWER_BYTES) {
          await reader.cancel();
          return { error: `the answer is over ${MAX_ANSWER_BYTES} bytes` };
        }
        chunks.push(chunk);
      }
    }
    return { status: response.status, text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
