import { missingAccess } from '../platform/errors.js';
import type { Caller } from './requestAuth.js';

/** 403 unless a Bearer caller's token holds `scope` (the bot holds every scope of its application). */
export function requireScope(caller: Caller, scope: string): void {
  if (caller.kind === 'bearer' && !caller.token.scopes.includes(scope)) {
    throw missingAccess(`the token lacks the ${scope} scope`);
  }
}
