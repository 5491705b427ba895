import type { EffectPort, StoreOperation } from "@runvil/protocol";
import type { StoreText } from "@runvil/sdk";
import type { RunRecorder } from "./journal";
import type { StoreIntent } from "./records";

/** The store operations that change a file, and so get an intent before they are applied. */
const CHANGES: ReadonlySet<StoreOperation["op"]> = new Set(["write", "append", "edit", "delete"]);

const DECODER = new TextDecoder("utf-8", { fatal: false });

/** A store path as text (a path that is not UTF-8 is refused by the store anyway). */
export function storePathText(path: StoreText): string {
  return typeof path === "string" ? path : DECODER.decode(path);
}

/** The path a store change touches, or undefined for an operation that changes nothing. */
export function changedPath(operation: StoreOperation): string | undefined {
  if (!CHANGES.has(operation.op)) return undefined;
  return storePathText((operation as { readonly path: StoreText }).path);
}

/** What the intent port needs: how to fingerprint a file, and where to record. */
export interface IntentPortOptions {
  /**
   * The file's fingerprint as it is now (docs/design/resume.md): text that changes whenever a
   * change through the store applies (for a directory store: inode, size and modification time,
   * or `absent`).
   */
  readonly fingerprint: (path: string) => Promise<string>;
  /** Called once, when an intent cannot be recorded (recording stops; the run goes on). */
  readonly onRecordingError?: (error: unknown) => void;
}

/**
 * Wraps `inner` so that every store change (write, append, edit, delete) is preceded by a
 * durable intent row in the journal, holding the file's fingerprint before the change: a
 * persistent store may be ahead of the journal after a crash, and a resume tells from the
 * fingerprint whether an unanswered change was applied (docs/design/resume.md).
 */
export function createIntentPort(
  inner: EffectPort,
  recorder: Pick<RunRecorder, "recordIntent">,
  options: IntentPortOptions,
): EffectPort {
  let failed = false;
  const port: EffectPort = {
    async storeOp(request) {
      const path = changedPath(request.operation);
      if (path !== undefined && !failed) {
        try {
          const intent: StoreIntent = {
            effect: request.effect,
            path,
            before: await options.fingerprint(path),
          };
          await recorder.recordIntent(intent);
        } catch (error) {
          failed = true;
          options.onRecordingError?.(error);
        }
      }
      return inner.storeOp(request);
    },
    emit: (event) => inner.emit(event),
  };
  const toolCall = inner.toolCall?.bind(inner);
  if (toolCall !== undefined) port.toolCall = toolCall;
  const modelRound = inner.modelRound?.bind(inner);
  if (modelRound !== undefined) port.modelRound = modelRound;
  return port;
}
