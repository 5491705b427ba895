export {
  argumentError,
  EngineError,
  type EngineErrorOptions,
  ERROR_KINDS,
  type ErrorFields,
  type ErrorKind,
  isErrorKind,
  quotaError,
} from "../engine-error";
export { ERRORS_PRIVATE_FIELD } from "../vm/error-values";
export { ERRORS_CHUNK_NAME } from "./errors-lua";
export { installErrors } from "./install-errors";
export { RUNTIME_ERROR_PREFIX, runtimeError, runtimeErrorMessage } from "./runtime-error";
export { type UncaughtError, uncaughtError } from "./uncaught-error";
