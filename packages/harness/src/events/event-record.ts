/** One recorded run event: its sequence number and the event the Engine emitted. */
export interface RunEventRecord<E> {
  /** 1 for the run's first event (or the recorder's firstSeq), then one more per event. */
  readonly seq: number;
  /** The event as emitted; the Engine defines the shapes. */
  readonly event: E;
}

/** Where an EventRecorder puts its records. */
export interface EventSink<E> {
  /**
   * Takes the next record. Must throw at once, keeping nothing, when it
   * cannot take it (an event that is not JSON data, a closed or failed sink),
   * so the recorder does not spend the sequence number.
   */
  write(record: RunEventRecord<E>): void;
  /** Resolves once every record taken so far is stored; rejects with the sink's failure. */
  flush(): Promise<void>;
  /** Flushes, then releases the sink; later writes throw. */
  close(): Promise<void>;
}
