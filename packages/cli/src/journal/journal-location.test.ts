import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayLocation, journalLocation } from "./journal-location";

describe("where runs are recorded", () => {
  const cwd = "/work/project";

  it("defaults to .runvil/runs.db in the working directory, or beside the configuration file", () => {
    expect(journalLocation({ cwd })).toBe(join(cwd, ".runvil", "runs.db"));
    expect(
      journalLocation({
        cwd,
        config: { file: "/work/app/runvil.config.json", journal: undefined },
      }),
    ).toBe("/work/app/.runvil/runs.db");
  });

  it("takes the configuration's journal relative to its file, a URL as is, false as nowhere", () => {
    const file = "/work/app/runvil.config.json";
    expect(journalLocation({ cwd, config: { file, journal: "data/runs.db" } })).toBe(
      "/work/app/data/runs.db",
    );
    expect(journalLocation({ cwd, config: { file, journal: "postgres://me@db/runs" } })).toBe(
      "postgres://me@db/runs",
    );
    expect(journalLocation({ cwd, config: { file, journal: false } })).toBeUndefined();
  });

  it("lets RUNVIL_JOURNAL override the configuration, and --journal override both", () => {
    const config = { file: "/work/app/runvil.config.json", journal: false as const };
    expect(journalLocation({ cwd, env: "runs.db", config })).toBe("/work/project/runs.db");
    expect(
      journalLocation({ cwd, env: "off", config: { ...config, journal: "x.db" } }),
    ).toBeUndefined();
    expect(journalLocation({ cwd, flag: "/tmp/j.db", env: "off", config })).toBe("/tmp/j.db");
  });

  it("shows a file inside the working directory relative to it", () => {
    expect(displayLocation("/work/project/.runvil/runs.db", cwd)).toBe(join(".runvil", "runs.db"));
    expect(displayLocation("/elsewhere/runs.db", cwd)).toBe("/elsewhere/runs.db");
    expect(displayLocation("postgres://me@db/runs", cwd)).toBe("postgres://me@db/runs");
  });
});
