/**
 * HTTP status codes, as the C++ SDK's `HttpStatusCode`: `ClientResult.Status()` returns one of these numbers
 * (0, `None`, when no HTTP response was involved).
 */
export enum HttpStatusCode {
  /** No HTTP response was involved. */
  None = 0,
  /** HTTP 100. */
  Continue = 100,
  /** HTTP 101. */
  SwitchingProtocols = 101,
  /** HTTP 102. */
  Processing = 102,
  /** HTTP 103. */
  EarlyHints = 103,
  /** HTTP 200. */
  Ok = 200,
  /** HTTP 201. */
  Created = 201,
  /** HTTP 202. */
  Accepted = 202,
  /** HTTP 203. */
  NonAuthoritativeInfo = 203,
  /** HTTP 204. */
  NoContent = 204,
  /** HTTP 205. */
  ResetContent = 205,
  /** HTTP 206. */
  PartialContent = 206,
  /** HTTP 207. */
  MultiStatus = 207,
  /** HTTP 208. */
  AlreadyReported = 208,
  /** HTTP 209. */
  ImUsed = 209,
  /** HTTP 300. */
  MultipleChoices = 300,
  /** HTTP 301. */
  MovedPermanently = 301,
  /** HTTP 302. */
  Found = 302,
  /** HTTP 303. */
  SeeOther = 303,
  /** HTTP 304. */
  NotModified = 304,
  /** HTTP 307. */
  TemporaryRedirect = 307,
  /** HTTP 308. */
  PermanentRedirect = 308,
  /** HTTP 400. */
  BadRequest = 400,
  /** HTTP 401. */
  Unauthorized = 401,
  /** HTTP 402. */
  PaymentRequired = 402,
  /** HTTP 403. */
  Forbidden = 403,
  /** HTTP 404. */
  NotFound = 404,
  /** HTTP 405. */
  MethodNotAllowed = 405,
  /** HTTP 406. */
  NotAcceptable = 406,
  /** HTTP 407. */
  ProxyAuthRequired = 407,
  /** HTTP 408. */
  RequestTimeout = 408,
  /** HTTP 409. */
  Conflict = 409,
  /** HTTP 410. */
  Gone = 410,
  /** HTTP 411. */
  LengthRequired = 411,
  /** HTTP 412. */
  PreconditionFailed = 412,
  /** HTTP 413. */
  PayloadTooLarge = 413,
  /** HTTP 414. */
  UriTooLong = 414,
  /** HTTP 415. */
  UnsupportedMediaType = 415,
  /** HTTP 416. */
  RangeNotSatisfiable = 416,
  /** HTTP 417. */
  ExpectationFailed = 417,
  /** HTTP 421. */
  MisdirectedRequest = 421,
  /** HTTP 422. */
  UnprocessableEntity = 422,
  /** HTTP 423. */
  Locked = 423,
  /** HTTP 424. */
  FailedDependency = 424,
  /** HTTP 425. */
  TooEarly = 425,
  /** HTTP 426. */
  UpgradeRequired = 426,
  /** HTTP 428. */
  PreconditionRequired = 428,
  /** HTTP 429. */
  TooManyRequests = 429,
  /** HTTP 431. */
  RequestHeaderFieldsTooLarge = 431,
  /** HTTP 500. */
  InternalServerError = 500,
  /** HTTP 501. */
  NotImplemented = 501,
  /** HTTP 502. */
  BadGateway = 502,
  /** HTTP 503. */
  ServiceUnavailable = 503,
  /** HTTP 504. */
  GatewayTimeout = 504,
  /** HTTP 505. */
  HttpVersionNotSupported = 505,
  /** HTTP 506. */
  VariantAlsoNegotiates = 506,
  /** HTTP 507. */
  InsufficientStorage = 507,
  /** HTTP 508. */
  LoopDetected = 508,
  /** HTTP 510. */
  NotExtended = 510,
  /** HTTP 511. */
  NetworkAuthorizationRequired = 511,
}
