/** How important a log line is, with the C++ SDK's `LoggingSeverity` values. */
export enum LoggingSeverity {
  /** Step-by-step detail; debug mode only. */
  Verbose = 1,
  /** Notable progress; debug mode only. */
  Info = 2,
  /** Something went wrong but the SDK recovered or will retry. */
  Warning = 3,
  /** An operation failed. */
  Error = 4,
  /** Use as a minimum severity to receive nothing. */
  None = 5,
}

/** Receives one finished, redacted log line. */
export type LogCallback = (message: string, severity: LoggingSeverity) => void;
