import { INPUT_BROKER, type InputBroker } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { ServiceMap } from "./service-map";

describe("ServiceMap", () => {
  it("answers has and get by id", () => {
    const broker: InputBroker = { ask: async () => "hi" };
    const services = new ServiceMap([[INPUT_BROKER, broker]]);
    expect(services.has(INPUT_BROKER)).toBe(true);
    expect(services.get(INPUT_BROKER)).toBe(broker);
    expect(services.has("acme/key")).toBe(false);
    expect(services.get("acme/key")).toBeUndefined();
  });

  it("lays an overlay over its services: the overlay wins, undefined removes", () => {
    const base = new ServiceMap([
      ["a", 1],
      ["b", 2],
    ]);
    const run = base.with({ b: 3, a: undefined, c: 4 });
    expect(run.ids()).toEqual(["b", "c"]);
    expect(run.get("b")).toBe(3);
    expect(base.ids()).toEqual(["a", "b"]);
    expect(base.with(undefined)).toBe(base);
  });

  it("skips undefined services when built", () => {
    expect(new ServiceMap([["a", undefined]]).has("a")).toBe(false);
  });
});
