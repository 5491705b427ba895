import { describe, expect, it } from "vitest";
import { parseIpv4, parseIpv6 } from "./ip-address";

describe("parseIpv4", () => {
  it("reads dotted decimal only", () => {
    expect(parseIpv4("127.0.0.1")).toEqual([127, 0, 0, 1]);
    expect(parseIpv4("255.255.255.255")).toEqual([255, 255, 255, 255]);
    for (const text of ["127.1", "256.0.0.1", "01.2.3.4", "1.2.3.4.5", "a.b.c.d", "", "::1"]) {
      expect(parseIpv4(text), text).toBeUndefined();
    }
  });
});

describe("parseIpv6", () => {
  it("reads full, compressed and IPv4-tailed forms, dropping a zone", () => {
    expect(parseIpv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6("fd00:ec2::254")).toEqual([0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]);
    expect(parseIpv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6("::ffff:7f00:1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("2001:DB8:0:0:0:0:0:1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
  });

  it("refuses what is not IPv6", () => {
    for (const text of [
      "1::2::3",
      "12345::",
      "1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8:9",
      "g::",
      "127.0.0.1",
      "",
      "::1.2.3",
    ]) {
      expect(parseIpv6(text), text).toBeUndefined();
    }
  });
});
