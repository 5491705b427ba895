import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import {
  isRefusedAddress,
  literalAddress,
  type NetworkPolicy,
  policyLookup,
  RefusedAddressError,
} from "./network-policy";

function policy(addresses: LookupAddress[], allowed: readonly string[]): NetworkPolicy {
  return { allows: (address) => allowed.includes(address), resolve: async () => addresses };
}

function lookup(
  p: NetworkPolicy,
  all: boolean,
): Promise<{ error: unknown; address: unknown; family: unknown }> {
  return new Promise((resolve) =>
    policyLookup(p)("example.test", { all }, (error, address, family) =>
      resolve({ error, address, family }),
    ),
  );
}

describe("policyLookup", () => {
  const answers: LookupAddress[] = [
    { address: "10.0.0.1", family: 4 },
    { address: "93.184.216.34", family: 4 },
    { address: "2606:2800::1", family: 6 },
  ];

  it("hands the connection only the allowed addresses, in order", async () => {
    const p = policy(answers, ["93.184.216.34", "2606:2800::1"]);
    expect(await lookup(p, false)).toEqual({ error: null, address: "93.184.216.34", family: 4 });
    expect((await lookup(p, true)).address).toEqual(answers.slice(1));
  });

  it("fails with a RefusedAddressError when no address is allowed", async () => {
    const { error } = await lookup(policy(answers, []), true);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect(isRefusedAddress(new Error("wrapped", { cause: error }))).toBe(true);
    expect(isRefusedAddress(new Error("other"))).toBe(false);
  });

  it("passes a resolver's error on", async () => {
    const failing: NetworkPolicy = {
      allows: () => true,
      resolve: () => Promise.reject(Object.assign(new Error("nope"), { code: "ENOTFOUND" })),
    };
    expect(((await lookup(failing, false)).error as { code: string }).code).toBe("ENOTFOUND");
  });
});

describe("literalAddress", () => {
  it("is the IP a URL names, brackets dropped, or undefined for a name", () => {
    expect(literalAddress(new URL("http://2130706433/"), isIP)).toBe("127.0.0.1");
    expect(literalAddress(new URL("http://[::ffff:127.0.0.1]/"), isIP)).toBe("::ffff:7f00:1");
    expect(literalAddress(new URL("http://0x7f000001/"), isIP)).toBe("127.0.0.1");
    expect(literalAddress(new URL("http://localhost/"), isIP)).toBeUndefined();
  });
});
