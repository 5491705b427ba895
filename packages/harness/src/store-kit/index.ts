/**
 * `@runvil/harness/store-kit`: the parts of the Harness's store backends that another backend
 * (a database-backed store in its own package) needs to give the same answers, word for word:
 * path and pattern checks, the UTF-8 checks, the anchor edit, bytewise order, the limits and the
 * StoreError of every reason (docs/design/store.md). The RunStore contract suite in
 * `@runvil/harness/testing` checks a backend built on them.
 */
export { type AnchorEdit, replaceAnchor } from "../store/anchor";
export { editArguments, textArgument } from "../store/arguments";
export { compareBytewise, sortBytewise } from "../store/bytewise";
export {
  anchorNotFound,
  anchorNotUnique,
  fileIsTooLarge,
  fileWouldBeTooLarge,
  invalidUtf8File,
  ioError,
  isDirectory,
  isFileNotDirectory,
  notFound,
  parentIsFile,
  type StoreOperation as StoreOperationName,
  storeWouldBeTooLarge,
} from "../store/failures";
export { compileGlob, type GlobMatcher } from "../store/glob";
export { resolveStoreLimits, type StoreLimits } from "../store/limits";
export { SerialQueue } from "../store/serial-queue";
export { parseStorePath, type StorePath } from "../store/store-path";
export { type CheckedText, textAsBytes, textAsString, utf8ValidUpTo } from "../store/utf8";
