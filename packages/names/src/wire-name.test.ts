import { describe, expect, it } from "vitest";
import { parseToolId } from "./tool-id";
import { isOfferableWireName, toWireName } from "./wire-name";

describe("toWireName", () => {
  it("replaces the slash with an underscore", () => {
    expect(toWireName("web/fetch")).toBe("web_fetch");
    expect(toWireName("web/search")).toBe("web_search");
  });

  it("keeps '-' as it is", () => {
    expect(toWireName("user-input/ask")).toBe("user-input_ask");
  });

  it("turns every '/' and every '.' into '_'", () => {
    expect(toWireName("web/search.v2")).toBe("web_search_v2");
    expect(toWireName("pack/group/tool")).toBe("pack_group_tool");
    expect(toWireName("a.b/./..")).toBe("a_b_____");
  });

  it("is not injective: a '.' and a '/' in the same place give one wire name", () => {
    const ids = ["a.b/c", "a/b.c", "a/b/c", "a_b/c"];
    expect(new Set(ids.map(toWireName))).toEqual(new Set(["a_b_c"]));
  });

  it("can produce a task built-in's name, which the Host must leave out", () => {
    expect(toWireName("task/cancel")).toBe("task_cancel");
  });

  it("gives every valid tool id a non-empty wire name of a-z, 0-9, '-', '_'", () => {
    for (const id of ["web/fetch", "user-input/ask", "a/b.c/-d", "./..", "1/2", "x/y.z_w-v"]) {
      expect(parseToolId(id).ok).toBe(true);
      expect(toWireName(id)).toMatch(/^[a-z0-9_-]+$/);
    }
  });
});

describe("isOfferableWireName", () => {
  it("accepts wire names of tool ids and local aliases", () => {
    for (const name of ["web_fetch", "user-input_ask", "grab", "Grab-2", "a.b", "task_cancel"]) {
      expect(isOfferableWireName(name)).toBe(true);
    }
  });

  it("refuses empty names and characters outside [A-Za-z0-9_.-]", () => {
    for (const name of ["", "web/fetch", "a b", "café", "a\tb", "a@b", "a\n"]) {
      expect(isOfferableWireName(name)).toBe(false);
    }
  });
});
