import { describe, expect, it } from "vitest";
import { wireNameOf } from "./wire-name";

describe("wireNameOf", () => {
  it("turns each / and . into _ and keeps -", () => {
    expect(wireNameOf("web/fetch")).toBe("web_fetch");
    expect(wireNameOf("user-input/ask")).toBe("user-input_ask");
    expect(wireNameOf("a.b/c.d/e")).toBe("a_b_c_d_e");
  });
});
