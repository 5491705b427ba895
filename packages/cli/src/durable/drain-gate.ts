import type { EffectPort, ToolCallRequest } from "@runvil/protocol";

/**
 * Lets a worker stop at a step boundary (SIGTERM drains): every effect a run sends through a
 * gated port is counted while it is in flight; once {@link close} is called, new effects are held
 * (they never start: the run is recovered elsewhere and sends them there), and {@link drained}
 * resolves when every effect in flight has settled, which for a durable port means its step is
 * recorded. Operator asks are not waited for: they hold nothing, and are answered wherever the
 * run resumes.
 */
export class DrainGate {
  readonly #isAsk: (request: ToolCallRequest) => boolean;
  #closed = false;
  #inFlight = 0;
  #waiters: (() => void)[] = [];

  constructor(isAsk: (request: ToolCallRequest) => boolean) {
    this.#isAsk = isAsk;
  }

  /** Effects in flight now (asks not counted). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Whether the gate holds new effects. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Holds every effect sent from now on. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** Resolves once the gate is closed and no effect is in flight. */
  drained(): Promise<void> {
    if (this.#closed && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** `port` with every effect passing through the gate. */
  wrap(port: EffectPort): EffectPort {
    const gated: EffectPort = {
      storeOp: (request) => this.#pass(() => port.storeOp(request)),
      emit: (event) => port.emit(event),
    };
    const toolCall = port.toolCall?.bind(port);
    const modelRound = port.modelRound?.bind(port);
    return {
      ...gated,
      ...(toolCall === undefined
        ? {}
        : {
            toolCall: (request: ToolCallRequest) =>
              this.#isAsk(request) && !this.#closed
                ? toolCall(request)
                : this.#pass(() => toolCall(request)),
          }),
      ...(modelRound === undefined
        ? {}
        : { modelRound: (request) => this.#pass(() => modelRound(request)) }),
    };
  }

  #pass<T>(effect: () => Promise<T>): Promise<T> {
    if (this.#closed) return new Promise<T>(() => {});
    this.#inFlight += 1;
    const settled = (): void => {
      this.#inFlight -= 1;
      this.#wake();
    };
    const result = effect();
    result.then(settled, settled);
    return result;
  }

  #wake(): void {
    if (!this.#closed || this.#inFlight > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
