/**
 * sdkpp/backend: the game backend's side of the platform (bot token): server-managed lobbies, members,
 * moderation metadata and channel links, SKUs and entitlements, the token exchange and refresh of a
 * confidential client (client secret), and the receivers of interactions and webhook events. For servers
 * only; never ship the bot token or the client secret in a game.
 * @packageDocumentation
 */
export {
  GameBackend,
  MAX_ADDITIONAL_NAME_LENGTH,
  MAX_BULK_MEMBER_CHANGES,
  type GameBackendOptions,
} from './GameBackend.js';
// Every type the backend's methods take or return is public.
export type * from './types.js';
export type { CodeExchangeOptions, TokenRefreshOptions } from './tokenGrants.js';
export type { ChildTokenResult, TokenExchangeResult } from '../auth/tokenTypes.js';
// The server makes the PKCE pair of a sign-in it will exchange, so the verifier never leaves it.
export {
  AuthenticationCodeChallengeMethod,
  createAuthorizationCodeVerifier,
  type AuthorizationCodeChallenge,
  type AuthorizationCodeVerifier,
} from '../auth/pkce.js';
export {
  AbortedError,
  AuthorizationError,
  BrowserUnavailableError,
  ClientDestroyedError,
  ClientNotReadyError,
  DeauthorizedError,
  ErrorType,
  errorTypeToString,
  HttpError,
  NetworkError,
  SdkError,
  ValidationError,
  type SdkErrorDetails,
} from '@sdkpp/protocol';
export { LoggingSeverity, type LogCallback } from '../logging/index.js';
export {
  createInteractionsHandler,
  createWebhookEventsHandler,
  type InteractionsHandlerOptions,
  type RequestHandler,
  type SignedReceiverOptions,
  type WebhookEventsHandlerOptions,
} from './receiving/receivers.js';
export { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './receiving/signature.js';
export {
  InteractionCallbackType,
  InteractionType,
  type ApplicationAuthorizedEvent,
  type ApplicationDeauthorizedEvent,
  type GameDirectMessageDeleteEvent,
  type GameDirectMessageEvent,
  type LobbyMessageDeleteEvent,
  type LobbyMessageEvent,
  type EntitlementCreateEvent,
  type QuestUserEnrollmentEvent,
  type Interaction,
  type InteractionResponse,
  type OtherWebhookEvent,
  type PlatformUser,
  type WebhookEvent,
} from './receiving/types.js';
export type {
  BackendEntitlement,
  BackendSku,
  BackendSubscription,
  ListEntitlementsOptions,
} from './premium.js';
