import { ValidationError } from '@sdkpp/protocol';
import { isSnowflake } from '../util/snowflake.js';
import type { ClientOptions } from './ClientOptions.js';

/**
 * Checks the options a game passes to `new Client(…)` and throws `ValidationError` naming the option, so a
 * typo in a URL or an id fails at once and in the SDK's own error family instead of deep inside a request.
 */
export function checkClientOptions(options: ClientOptions): void {
  if (options === null || typeof options !== 'object')
    throw new ValidationError('Client options must be an object (or left out)');
  url('apiBase', options.apiBase, ['http:', 'https:']);
  url('webBase', options.webBase, ['http:', 'https:']);
  url('gatewayUrl', options.gatewayUrl, ['ws:', 'wss:']);
  if (options.applicationId !== undefined && !isSnowflake(options.applicationId))
    throw new ValidationError(
      'applicationId must be a snowflake id (digits only), e.g. "1234567890123456789"',
    );
  for (const key of ['maxRateLimitWaitMs', 'tokenExpiryWarningMs', 'callJoinTimeoutMs'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      throw new ValidationError(`${key} must be a number of milliseconds, 0 or more`);
  }
}

function url(name: string, value: string | undefined, protocols: string[]): void {
  if (value === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ValidationError(
      `${name} must be an absolute URL such as ${example(protocols)}, not "${value}"`,
    );
  }
  if (!protocols.includes(parsed.protocol))
    throw new ValidationError(`${name} must be a ${protocols.join(' or ')} URL, not "${value}"`);
}

function example(protocols: string[]): string {
  return protocols[0] === 'ws:' ? 'wss://gateway.example/' : 'https://discord.com/api/v10';
}
