/** What replaces a secret in a log line. */
export const REDACTED = '[redacted]';

// Credentials in the shapes they take on the wire: auth headers, form fields, JSON fields, query params.
const AUTH_HEADER = /\b(Bearer|Bot|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
const SECRET_FIELD =
  /((?:"|\b)(?:access_token|refresh_token|id_token|token|code|code_verifier|code_challenge|client_secret|external_auth_token|secret_key|state|nonce)"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^"&\s,}\]]+)/gi;

/** Secrets shorter than this are not matched literally: they would scrub ordinary words. */
const MIN_LITERAL_LENGTH = 8;
/** Remembered secrets are bounded so a long-running game does not grow without limit. */
const MAX_REMEMBERED = 512;

/**
 * Removes credentials from text. Known secret values (tokens, codes, verifiers the SDK has handled) are
 * replaced wherever they appear; credential-shaped fields are replaced even when the value was never seen.
 */
export class SecretRedactor {
  readonly #secrets = new Set<string>();

  /** Remembers a value that must never appear in a log line. */
  remember(secret: string | undefined | null): void {
    if (!secret || secret.length < MIN_LITERAL_LENGTH || this.#secrets.has(secret)) return;
    this.#secrets.add(secret);
    if (this.#secrets.size > MAX_REMEMBERED) {
      const oldest = this.#secrets.values().next().value;
      if (oldest !== undefined) this.#secrets.delete(oldest);
    }
  }

  /** Returns `text` with every remembered secret and credential-shaped field replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out
      .replace(AUTH_HEADER, `$1 ${REDACTED}`)
      .replace(SECRET_FIELD, (_m, key: string, value: string) =>
        value.startsWith('"') ? `${key}"${REDACTED}"` : `${key}${REDACTED}`,
      );
  }
}
