import { describe, expect, it } from "vitest";
import * as names from "./index";

describe("package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(names).sort()).toEqual(
      [
        "ALIAS_GRAMMAR",
        "MODEL_ID_GRAMMAR",
        "REASON_ALIAS",
        "REASON_BAD_CHARACTER",
        "REASON_CONTROL_CHARACTER",
        "REASON_EMPTY_SEGMENT",
        "REASON_FULLY_QUALIFIED_NAME_SEGMENTS",
        "REASON_MODEL_ID",
        "REASON_PACK_ID_SEGMENTS",
        "REASON_TOOL_ID_SEGMENTS",
        "REASON_USES_ENTRY_SEGMENTS",
        "RUNVIL_VENDOR",
        "TASK_BUILTIN_NAMES",
        "USES_ENTRY_NOT_STRING",
        "checkAlias",
        "checkModelId",
        "checkPackId",
        "findRepeatedPackId",
        "invalidAliasMessage",
        "invalidUsesEntryMessage",
        "isTaskBuiltinName",
        "isOfferableWireName",
        "parseFullyQualifiedName",
        "parseName",
        "parseToolId",
        "parseUsesEntry",
        "repeatedPackIdMessage",
        "toWireName",
      ].sort(),
    );
  });

  it("ties the three names of one tool together: Pack id, tool id, wire name", () => {
    const entry = names.parseUsesEntry("web");
    const tool = names.parseToolId("web/fetch");
    expect(entry.ok && tool.ok && entry.value.packId === tool.value.packId).toBe(true);
    expect(tool.ok && `${tool.value.packId}|${tool.value.id}`).toBe("web|web/fetch");
    expect(names.toWireName("web/fetch")).toBe("web_fetch");
  });
});
