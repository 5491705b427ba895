import { describe, expect, it } from "vitest";
import { traceEndpoint } from "./trace-endpoint";

const config = {
  file: "proj/runvil.config.json",
  otel: { endpoint: "http://collector:4318/v1/traces" },
};

describe("traceEndpoint", () => {
  it("takes --otel over the configuration's otel.endpoint", () => {
    expect(traceEndpoint("http://127.0.0.1:4318/v1/traces", config)).toEqual({
      url: "http://127.0.0.1:4318/v1/traces",
      shown: "--otel http://127.0.0.1:4318/v1/traces",
    });
  });

  it("takes otel.endpoint without the flag, naming the file it came from", () => {
    expect(traceEndpoint(undefined, config)).toEqual({
      url: "http://collector:4318/v1/traces",
      shown: "otel.endpoint http://collector:4318/v1/traces (proj/runvil.config.json)",
    });
  });

  it("is off without either", () => {
    expect(traceEndpoint(undefined, undefined)).toBeUndefined();
    expect(
      traceEndpoint(undefined, { file: "runvil.config.json", otel: undefined }),
    ).toBeUndefined();
  });
});
