import { describe, expect, it } from "vitest";
import { CALL_RECURSION_MESSAGE, Chain } from "./chain";

describe("Chain", () => {
  it("numbers entries and children with separate chain-local counters", () => {
    const root = Chain.root();
    expect(root.nextEntryId()).toBe("0.0");
    expect(root.nextEntryId()).toBe("0.1");
    const first = root.openCallChain(null);
    const second = root.openCallChain(3);
    expect([first.id, second.id]).toEqual(["0.0", "0.1"]);
    expect(second.container).toBe(3);
    expect(second.nextEntryId()).toBe("0.1.0");
    expect(second.openCallChain(null).id).toBe("0.1.0");
    expect(root.nextEntryId()).toBe("0.2");
    expect(root.entryCount).toBe(3);
  });

  it("inherits the task id and counts depth up to the cap of 8", () => {
    let chain = Chain.root();
    for (let depth = 1; depth <= 8; depth++) {
      expect(chain.atCallCap).toBe(false);
      chain = chain.openCallChain(null);
      expect(chain.depth).toBe(depth);
      expect(chain.taskId).toBe("0");
    }
    expect(chain.atCallCap).toBe(true);
    expect(CALL_RECURSION_MESSAGE).toBe("call recursion exceeded cap of 8");
  });
});
