import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { RunEvent } from "@runvil/protocol";

/** A run's tracing (`runvil run --otel URL`, docs/design/otel.md "The CLI"). */
export interface RunTracing {
  /** The event sink: every event of the run. */
  readonly onEvent: (event: RunEvent) => void;
  /** Ends the trace and sends what is left; resolves with why an export failed, if one did. */
  finish(): Promise<string | undefined>;
}

/**
 * Starts tracing one run to an OTLP/HTTP traces endpoint (JSON). Only `--otel` calls this, and
 * it loads `@runvil/otel` and the OpenTelemetry SDK and exporter itself: a run without `--otel`
 * loads none of them (the worker bundle leaves them out, tsup.worker.config.ts).
 */
export async function startRunTracing(endpoint: string): Promise<RunTracing> {
  const [otel, sdk, resources, otlp] = await Promise.all([
    import("@runvil/otel"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  const exporter = new otlp.OTLPTraceExporter({ url: endpoint });
  let failure: string | undefined;
  // The exporter reports a failed export only to its callback (and OpenTelemetry's global
  // error handler): keep the first reason for the CLI's stderr line.
  const recording: SpanExporter = {
    export: (spans: ReadableSpan[], done) => {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0 (@opentelemetry/core).
        if (result.code !== 0) failure ??= result.error?.message ?? "the export failed";
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ "service.name": "runvil" }),
    spanProcessors: [new sdk.BatchSpanProcessor(recording)],
  });
  const projection = otel.createTraceProjection({ tracer: provider.getTracer("runvil") });
  return {
    onEvent: projection,
    finish: async () => {
      projection.end();
      try {
        await provider.forceFlush();
        await provider.shutdown();
      } catch (error) {
        failure ??= error instanceof Error ? error.message : String(error);
      }
      return failure;
    },
  };
}
