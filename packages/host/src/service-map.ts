import type { KnownServices, Services } from "@runvil/sdk";

/** Services held in a map: what the Host lends runs and tool calls. */
export class ServiceMap implements Services {
  readonly #values: ReadonlyMap<string, unknown>;

  /** Services from `[id, service]` pairs; a pair whose service is undefined is skipped. */
  constructor(entries: Iterable<readonly [string, unknown]> = []) {
    const values = new Map<string, unknown>();
    for (const [id, service] of entries) {
      if (service === undefined) values.delete(id);
      else values.set(id, service);
    }
    this.#values = values;
  }

  /** Whether the service `id` is provided. */
  has(id: string): boolean {
    return this.#values.has(id);
  }

  /** The service `id`, or undefined. */
  get<K extends keyof KnownServices>(id: K): KnownServices[K] | undefined;
  get(id: string): unknown;
  get(id: string): unknown {
    return this.#values.get(id);
  }

  /** The provided service ids, sorted. */
  ids(): string[] {
    return [...this.#values.keys()].sort();
  }

  /**
   * These services with `overlay` laid over them: an id in `overlay` wins, and an id whose
   * value is undefined is removed.
   */
  with(overlay: Readonly<Record<string, unknown>> | undefined): ServiceMap {
    if (overlay === undefined) return this;
    return new ServiceMap([...this.#values, ...Object.entries(overlay)]);
  }
}
