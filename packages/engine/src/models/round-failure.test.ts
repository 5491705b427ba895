import { ModelFailure, type ModelFailureKind, ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { roundFailure } from "./round-failure";

function shape(error: ReturnType<typeof roundFailure>) {
  return { kind: error.kind, message: error.message, fields: error.fields };
}

describe("roundFailure", () => {
  it("keeps a provider's context_exhausted with its fields and reason provider", () => {
    const failure = new ModelFailure("context_exhausted", "too long", {
      reason: "mine",
      limit: 10,
      retry: false,
    });
    expect(shape(roundFailure(failure, "m"))).toEqual({
      kind: "context_exhausted",
      message: "too long",
      fields: { limit: "10", retry: "false", reason: "provider" },
    });
  });

  it("keeps a provider's internal failure's message, without fields", () => {
    expect(
      shape(roundFailure(new ModelFailure("internal", "model is down", { a: 1 }), "m")),
    ).toEqual({
      kind: "internal",
      message: "model is down",
      fields: {},
    });
  });

  it("turns anything else into internal with the generic message", () => {
    const generic = { kind: "internal", message: "m-1: the model round failed", fields: {} };
    expect(shape(roundFailure(new Error("socket"), "m-1"))).toEqual(generic);
    expect(shape(roundFailure(new ToolFailure("x"), "m-1"))).toEqual(generic);
    // A kind outside the contract (a provider built on an older SDK copy).
    const old = new ModelFailure("completion" as ModelFailureKind, "x");
    expect(shape(roundFailure(old, "m-1"))).toEqual(generic);
    expect(shape(roundFailure("text", "m-1"))).toEqual(generic);
  });

  it("recognises a ModelFailure from another copy of the SDK by its brand", () => {
    const copy = Object.assign(Object.create({ [Symbol.for("runvil.ModelFailure")]: true }), {
      kind: "internal",
      message: "from a copy",
      fields: {},
    });
    expect(shape(roundFailure(copy, "m"))).toMatchObject({
      kind: "internal",
      message: "from a copy",
    });
  });
});
