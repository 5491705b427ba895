export * as attributes from "./attributes";
export {
  createTraceProjection,
  type TraceProjection,
  type TraceProjectionOptions,
} from "./trace-projection";
