import { MAX_USER_INSTALLS } from './schema.js';
import type { ApplicationRecord } from './types.js';

/** Records that a user installed the app to their account (once; the oldest go past the bound). */
export function addUserInstall(app: ApplicationRecord, userId: string): void {
  const installs = app.userInstalls ?? [];
  if (installs.includes(userId)) return;
  installs.push(userId);
  if (installs.length > MAX_USER_INSTALLS) installs.shift();
  app.userInstalls = installs;
}

/** Forgets a user's install (they deauthorized the app, or were banned). */
export function removeUserInstall(app: ApplicationRecord, userId: string): void {
  const installs = app.userInstalls?.filter((id) => id !== userId) ?? [];
  if (installs.length === 0) delete app.userInstalls;
  else app.userInstalls = installs;
}
