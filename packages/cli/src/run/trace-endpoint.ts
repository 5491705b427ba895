import type { OtelConfig } from "@runvil/host";

/** Where a run's trace goes, and how messages name where that came from. */
export interface TraceEndpoint {
  /** The OTLP/HTTP traces endpoint. */
  readonly url: string;
  /** `--otel URL`, or `otel.endpoint URL ({config file})`: the start of a failure line. */
  readonly shown: string;
}

/**
 * The trace endpoint of a run (docs/design/otel.md): `--otel URL` when given, else the
 * `otel.endpoint` of the configuration file that applies, else none (tracing off).
 */
export function traceEndpoint(
  flag: string | undefined,
  config: { readonly file: string; readonly otel: OtelConfig | undefined } | undefined,
): TraceEndpoint | undefined {
  if (flag !== undefined) return { url: flag, shown: `--otel ${flag}` };
  const url = config?.otel?.endpoint;
  if (config === undefined || url === undefined) return undefined;
  return { url, shown: `otel.endpoint ${url} (${config.file})` };
}
