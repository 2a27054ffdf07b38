export { ErrorType, errorTypeToString } from './ErrorType.js';
export {
  AbortedError,
  AuthorizationError,
  BrowserUnavailableError,
  ClientDestroyedError,
  ClientNotReadyError,
  DeauthorizedError,
  HttpError,
  NetworkError,
  SdkError,
  ValidationError,
  type SdkErrorDetails,
} from './SdkError.js';
