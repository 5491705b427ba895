import { bench, describe } from "vitest";
import { parseUsesEntry, toWireName } from "../src/index";

const ENTRIES = [
  "web",
  "user-input",
  "runvil/web",
  "acme/poop",
  "acme/web/fetch",
  "Web/",
  "web@1.0",
  "acme//web",
  "a-much-longer-pack-id.with_dots-and_underscores",
];
const TOOL_IDS = ["web/fetch", "web/search", "user-input/ask", "pack/group/tool.v2"];

const ENTRY_REGEX = /^[a-z0-9_.-]+(?:\/[a-z0-9_.-]+)?$/;

/** Keeps the results alive so the engine cannot drop the work. */
const sink = { value: 0 };

describe("uses: entries", () => {
  bench("parseUsesEntry", () => {
    for (const entry of ENTRIES) if (parseUsesEntry(entry).ok) sink.value++;
  });

  bench("reference: plain regex test (no reasons, no parts)", () => {
    for (const entry of ENTRIES) if (ENTRY_REGEX.test(entry)) sink.value++;
  });
});

describe("wire names", () => {
  bench("toWireName", () => {
    for (const id of TOOL_IDS) sink.value += toWireName(id).length;
  });

  bench("reference: replaceAll twice", () => {
    for (const id of TOOL_IDS) sink.value += id.replaceAll("/", "_").replaceAll(".", "_").length;
  });
});
