import type { StoreOperation } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { StoreClaims } from "./store-claims";

const read = (path: string): StoreOperation => ({ op: "read", path });
const write = (path: string): StoreOperation => ({ op: "write", path, contents: "x" });
const list = (prefix?: string): StoreOperation =>
  prefix === undefined ? { op: "list" } : { op: "list", prefix };
const glob = (pattern: string): StoreOperation => ({ op: "glob", pattern });

/** Two sibling tasks 0.0 and 0.1 of the root, neither joined. */
function siblings(): StoreClaims {
  const c = new StoreClaims();
  c.tasks.spawned("0", "0.0");
  c.tasks.spawned("0", "0.1");
  return c;
}

describe("StoreClaims", () => {
  it("lets concurrent tasks read one path and write different paths", () => {
    const c = siblings();
    expect(c.claim("0.0", read("a"))).toBeUndefined();
    expect(c.claim("0.1", read("a"))).toBeUndefined();
    expect(c.claim("0.0", write("out/0.0"))).toBeUndefined();
    expect(c.claim("0.1", write("out/0.1"))).toBeUndefined();
  });

  it("refuses a concurrent write after a write, and after a read, naming both tasks in id order", () => {
    const c = siblings();
    expect(c.claim("0.1", write("same"))).toBeUndefined();
    expect(c.claim("0.0", write("same"))).toEqual({ path: "same", tasks: ["0.0", "0.1"] });
    const d = siblings();
    expect(d.claim("0.0", read("r"))).toBeUndefined();
    expect(d.claim("0.1", write("r"))).toEqual({ path: "r", tasks: ["0.0", "0.1"] });
  });

  it("sees a file against its directories and listings", () => {
    const c = siblings();
    expect(c.claim("0.0", write("d/x"))).toBeUndefined();
    expect(c.claim("0.1", read("d"))).toEqual({ path: "d", tasks: ["0.0", "0.1"] });
    const d = siblings();
    expect(d.claim("0.0", list("d"))).toBeUndefined();
    expect(d.claim("0.1", write("d/e/f"))).toEqual({ path: "d/e/f", tasks: ["0.0", "0.1"] });
    const e = siblings();
    expect(e.claim("0.0", list())).toBeUndefined();
    expect(e.claim("0.1", write("top"))).toEqual({ path: "top", tasks: ["0.0", "0.1"] });
    const f = siblings();
    expect(f.claim("0.0", write("other/x"))).toBeUndefined();
    expect(f.claim("0.1", list("d"))).toBeUndefined();
  });

  it("matches globs against changes in both orders", () => {
    const c = siblings();
    expect(c.claim("0.0", glob("out/*.md"))).toBeUndefined();
    expect(c.claim("0.1", write("out/a.txt"))).toBeUndefined();
    expect(c.claim("0.1", write("out/a.md"))).toEqual({ path: "out/a.md", tasks: ["0.0", "0.1"] });
    const d = siblings();
    expect(d.claim("0.0", write("out/b.md"))).toBeUndefined();
    expect(d.claim("0.1", glob("**"))).toEqual({ path: "out/b.md", tasks: ["0.0", "0.1"] });
  });

  it("accepts what happens-before orders: a write before a spawn, a read after a join", () => {
    const c = new StoreClaims();
    expect(c.claim("0", write("seed"))).toBeUndefined();
    c.tasks.spawned("0", "0.0");
    expect(c.claim("0.0", write("seed"))).toBeUndefined();
    expect(c.claim("0", read("seed"))).toEqual({ path: "seed", tasks: ["0", "0.0"] });
    const d = new StoreClaims();
    d.tasks.spawned("0", "0.0");
    expect(d.claim("0.0", write("out"))).toBeUndefined();
    d.tasks.joined("0", ["0.0"]);
    expect(d.claim("0", read("out"))).toBeUndefined();
    expect(d.claim("0", write("out"))).toBeUndefined();
  });

  it("keeps bytes paths that are not UTF-8 apart from every text path", () => {
    const c = siblings();
    const bad = new Uint8Array([0xff]);
    expect(c.claim("0.0", { op: "write", path: bad, contents: "x" })).toBeUndefined();
    expect(c.claim("0.1", write("\uFFFD"))).toBeUndefined();
    const same = new TextEncoder().encode("\uFFFD");
    expect(c.claim("0.0", { op: "read", path: same })).toEqual({
      path: "\uFFFD",
      tasks: ["0.0", "0.1"],
    });
  });
});
