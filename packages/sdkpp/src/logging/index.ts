export { LoggingSeverity, type LogCallback } from './LoggingSeverity.js';
export { Logger, type LoggerOptions, type LogWriter } from './Logger.js';
export { REDACTED, SecretRedactor } from './redact.js';
