import { isSnowflake } from '../snowflake.js';
import { expandScopes, isKnownScope, parseScopeParam, scopeMembers } from '../store/scopes.js';

/** An application the emulator knows besides the one it serves, as {@link resolvePublisherApplications} checked it. */
export interface PublisherApplication {
  id: string;
  name: string;
  /** True: a child of the served (publisher) application; false: an application of another publisher. */
  child: boolean;
  /** The scopes the child application accepts (bundles included); a child token never carries more. */
  scopes: string[];
}

/** What `EmulatorOptions.publisherApplications` takes for one application. */
export interface PublisherApplicationOption {
  id: string;
  name?: string;
  child?: boolean;
  scopes?: string[];
}

/**
 * What a child accepts unless told otherwise: what the client SDK asks for (`openid` and the communication
 * bundle, which contains the presence bundle).
 */
export const DEFAULT_CHILD_SCOPES: readonly string[] = [
  'openid',
  'sdk.social_layer',
  'sdk.social_layer_presence',
];

/** Checks the option; throws a `RangeError` naming the first bad entry. */
export function resolvePublisherApplications(
  options: readonly PublisherApplicationOption[] | undefined,
  servedId: string | undefined,
): PublisherApplication[] {
  const seen = new Set<string>();
  return (options ?? []).map((option, index) => {
    const where = `EmulatorOptions.publisherApplications[${index}]`;
    if (!isSnowflake(option.id)) throw new RangeError(`${where}.id must be a snowflake`);
    if (option.id === servedId || seen.has(option.id))
      throw new RangeError(`${where}.id ${option.id} is taken`);
    seen.add(option.id);
    const name = option.name ?? `Child game ${option.id}`;
    if (name.length === 0 || name.length > 100)
      throw new RangeError(`${where}.name must be 1–100 characters`);
    const scopes = [...(option.scopes ?? DEFAULT_CHILD_SCOPES)];
    const unknownScope = scopes.find((s) => !isKnownScope(s));
    if (unknownScope !== undefined) throw new RangeError(`${where}.scopes: unknown scope "${unknownScope}"`);
    return { id: option.id, name, child: option.child ?? true, scopes };
  });
}

/**
 * The scopes of a child token, the emulator's reading of "the child token carries the child's scopes": what
 * the parent token was granted, narrowed to what the child accepts. The granted set is the intersection of the
 * parent's granted set with the child's expanded scopes. The scope string keeps each requested parent scope
 * the child accepts whole (a bundle only with every member), then names each scope of the child's that survived
 * (a bundle with all its members) and is not named yet, so `openid sdk.social_layer` narrowed to a presence-only child reads
 * `openid sdk.social_layer_presence`.
 */
export function childTokenScopes(
  parent: { scope: string; scopes: readonly string[] },
  child: PublisherApplication,
): { scope: string; scopes: string[] } {
  const allowed = new Set(expandScopes(child.scopes));
  const granted = parent.scopes.filter((s) => allowed.has(s));
  const has = new Set(granted);
  const kept = parseScopeParam(parent.scope).filter((s) => expandScopes([s]).every((m) => allowed.has(m)));
  for (const scope of child.scopes) {
    const members = scopeMembers(scope);
    const named = new Set(expandScopes(kept));
    if (named.has(scope) || (members.length > 0 && members.every((m) => named.has(m)))) continue;
    const survived = members.length > 0 ? members.every((m) => has.has(m)) : has.has(scope);
    if (!survived) continue;
    kept.push(scope);
    if (!has.has(scope)) granted.push(scope);
    has.add(scope);
  }
  return { scope: kept.join(' '), scopes: granted };
}
