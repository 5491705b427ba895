import {
  type EffectRecord,
  encodeOutput,
  encodeValue,
  type RecordedFailure,
} from "@runvil/journal";

let issued = 0;

/** A recorded effect (tests): a model round, a tool call or a store operation, issued in call order. */
export function effect(
  kind: EffectRecord["kind"],
  request: unknown,
  answer: { output?: unknown; failure?: RecordedFailure },
  chain = "0",
): EffectRecord {
  issued += 1;
  return {
    effect: `0.1/${issued}`,
    kind,
    origin: { execution: "run-1", chain, entry: "0.1", section: "Main", task: chain },
    request: encodeValue(request),
    issued,
    arrival: issued,
    eventsBefore: 0,
    startedUs: 0,
    durationUs: 0,
    ...("output" in answer ? { output: encodeOutput(answer.output) } : {}),
    ...(answer.failure === undefined ? {} : { failure: answer.failure }),
  };
}
