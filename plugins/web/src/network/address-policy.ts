import { parseIpv4, parseIpv6 } from "./ip-address";

/**
 * Which addresses web/fetch connects to (docs/design/web-pack.md, "Address filtering"): public
 * unicast addresses only. Refused: IPv4 "this network" 0/8 (0.0.0.0 included), private 10/8,
 * 172.16/12 and 192.168/16, shared 100.64/10, loopback 127/8, link-local 169.254/16 (cloud
 * metadata 169.254.169.254), IETF 192.0.0/24, documentation 192.0.2/24, 198.51.100/24 and
 * 203.0.113/24, 6to4 relay 192.88.99/24, benchmarking 198.18/15, multicast 224/4 and reserved
 * 240/4 (broadcast included). IPv6 is allowed only in global unicast 2000::/3, less IETF 2001::/23,
 * documentation 2001:db8::/32 and 3fff::/20; so unspecified ::, loopback ::1, unique-local
 * fc00::/7 (cloud metadata fd00:ec2::254), link-local fe80::/10, site-local fec0::/10, multicast
 * ff00::/8, discard 100::/64 and local-use NAT64 64:ff9b:1::/48 are refused. An IPv6 address that
 * carries an IPv4 one — mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16 — is judged
 * by its IPv4 address; the deprecated compatible form ::/96 is refused. Text that is no IP
 * address is refused too.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return isPublicIpv4(v4);
  const v6 = parseIpv6(address);
  return v6 !== undefined && isPublicIpv6(v6);
}

function isPublicIpv4([a, b, c]: readonly number[]): boolean {
  if (a === undefined || b === undefined || c === undefined) return false;
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false;
  if (a === 192 && b === 88 && c === 99) return false;
  if (a === 198 && (b === 18 || b === 19)) return false;
  if (a === 198 && b === 51 && c === 100) return false;
  if (a === 203 && b === 0 && c === 113) return false;
  return true;
}

/** The IPv4 address in groups `high` and `low`, as four bytes. */
function embedded(high: number, low: number): number[] {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function isPublicIpv6(groups: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // ::ffff:a.b.c.d (mapped) is its IPv4 address; ::/96 (compatible, :: and ::1 included) is none.
  if (zeroHead && g5 === 0xffff) return isPublicIpv4(embedded(g6, g7));
  if (zeroHead && g5 === 0) return false;
  // 64:ff9b::a.b.c.d (NAT64, well-known prefix).
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPublicIpv4(embedded(g6, g7));
  }
  // 2002:aabb:ccdd::/48 (6to4).
  if (g0 === 0x2002) return isPublicIpv4(embedded(g1, g2));
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 < 0x200) return false;
  if (g0 === 0x2001 && g1 === 0xdb8) return false;
  if (g0 === 0x3fff && g1 < 0x1000) return false;
  return true;
}
