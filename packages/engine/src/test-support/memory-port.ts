import { applyStoreOperation, MemoryStore, readAllFiles } from "@runvil/harness";
import type {
  EffectPort,
  ObservationRequest,
  RunEvent,
  StoreOperation,
  StoreOutput,
  StoreRequest,
} from "@runvil/protocol";

/**
 * An in-memory EffectPort for tests: store operations on the Harness's MemoryStore, every event
 * and store request kept in order. `beforeStoreOp` lets a test hold or observe a request.
 */
export class MemoryPort implements EffectPort {
  readonly events: RunEvent[] = [];
  readonly requests: StoreRequest[] = [];
  readonly store: MemoryStore;
  beforeStoreOp: ((request: StoreRequest) => Promise<void> | void) | undefined;
  /** The port's answers to observations (EffectPort.recall), by effect id; each one asked is kept. */
  readonly recalled = new Map<string, string>();
  readonly observations: ObservationRequest[] = [];

  constructor(files: Readonly<Record<string, string>> = {}) {
    this.store = new MemoryStore({ files });
  }

  async storeOp<O extends StoreOperation>(request: StoreRequest<O>): Promise<StoreOutput<O["op"]>> {
    this.requests.push(request);
    await this.beforeStoreOp?.(request);
    return applyStoreOperation(this.store, request.operation);
  }

  recall(request: ObservationRequest): string | undefined {
    this.observations.push(request);
    return this.recalled.get(request.effect);
  }

  emit(event: RunEvent): void {
    this.events.push(event);
  }

  /** Every file of the store, path to text, in path order. */
  files(): Promise<Record<string, string>> {
    return readAllFiles(this.store);
  }

  /** The `Lua: {message}` text of every checkpoint, in order. */
  checkpoints(): string[] {
    return this.events.flatMap((e) => (e.type === "lua_checkpoint" ? [`Lua: ${e.message}`] : []));
  }

  /** Every event type, in order. */
  types(): string[] {
    return this.events.map((e) => e.type);
  }
}
