import { isIP } from 'node:net';

// The platform applies "stricter hostname checks" to OpenID Connect issuer URLs and discovery, without saying
// which. The emulator's rules, checked when a provider is configured (as the developer portal validates edits)
// and again for the JWKS URI that discovery names:
// - https only; no user name or password, query or fragment in the URL;
// - the host is a DNS name of at least two labels (letters, digits, hyphens; no label starting or ending with a
//   hyphen; an alphabetic top-level label), not an IP address literal, not `localhost` or `*.localhost`;
// - with the emulator's `allowLoopbackOidcIssuers` option (for tests and local identity servers) the loopback
//   hosts `127.0.0.1`, `[::1]` and `localhost` are allowed too, over http or https. Other IP literals stay
//   refused: a private address is as reachable from a test as a loopback one, and would hide the rule.

/** Options of {@link issuerUrlProblem}. */
export interface IssuerRules {
  /** Allow `127.0.0.1`, `[::1]` and `localhost` (over http too). */
  allowLoopback: boolean;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^[a-z]{2,63}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `url` is not acceptable as an issuer or JWKS URL under the rules, or null when it is. */
export function issuerUrlProblem(url: string, rules: IssuerRules): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  const host = parsed.hostname.toLowerCase();
  const loopback = rules.allowLoopback && LOOPBACK_HOSTS.has(host);
  if (parsed.protocol !== 'https:' && !(loopback && parsed.protocol === 'http:')) return 'must use https';
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password';
  if (parsed.search !== '' || parsed.hash !== '') return 'must not have a query or fragment';
  if (loopback) return null;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return 'must name a host, not an IP address';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not be localhost';
  if (host.length > 253 || host.endsWith('.')) return 'has an invalid host name';
  const labels = host.split('.');
  if (labels.length < 2) return 'must have a fully qualified host name';
  if (!labels.every((label) => LABEL.test(label))) return 'has an invalid host name';
  if (!TOP_LABEL.test(labels[labels.length - 1] ?? '')) return 'has an invalid top-level domain';
  return null;
}

/** A configured OpenID Connect provider, as {@link resolveOidcProviders} checked it. */
export interface OidcProvider {
  /** The issuer URL, exactly as ID tokens' `iss` must carry it. */
  issuer: string;
  /** The `aud` ID tokens must carry, or null to accept any. */
  audience: string | null;
}

/** Checks `EmulatorOptions.oidcProviders`; throws a `RangeError` naming the first bad entry. */
export function resolveOidcProviders(
  providers: readonly { issuer: string; audience?: string }[] | undefined,
  rules: IssuerRules,
): OidcProvider[] {
  return (providers ?? []).map((provider, index) => {
    const where = `EmulatorOptions.oidcProviders[${index}]`;
    const problem =
      typeof provider.issuer === 'string' ? issuerUrlProblem(provider.issuer, rules) : 'is not a URL';
    if (problem !== null) throw new RangeError(`${where}.issuer ${problem}`);
    if (
      provider.audience !== undefined &&
      (typeof provider.audience !== 'string' || provider.audience === '')
    ) {
      throw new RangeError(`${where}.audience must be a non-empty string`);
    }
    return { issuer: provider.issuer, audience: provider.audience ?? null };
  });
}
