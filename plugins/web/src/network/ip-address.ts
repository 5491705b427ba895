/**
 * IP address text parsed to its numbers, for the address policy. Only the canonical forms
 * matter here: the WHATWG URL parser has already turned every IPv4 spelling (`2130706433`,
 * `0x7f000001`, `0177.0.0.1`, `127.1`) into dotted decimal, and DNS answers come dotted or as
 * RFC 4291 IPv6 text.
 */

/** An IPv4 address as its four bytes, or undefined when `text` is not dotted-decimal IPv4. */
export function parseIpv4(text: string): [number, number, number, number] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes as [number, number, number, number];
}

/**
 * An IPv6 address as its eight 16-bit groups, or undefined when `text` is not IPv6. Takes `::`
 * compression, a dotted IPv4 tail (`::ffff:127.0.0.1`) and a zone (`fe80::1%eth0`, dropped);
 * brackets are not part of the text.
 */
export function parseIpv6(text: string): number[] | undefined {
  const zone = text.indexOf("%");
  const address = zone === -1 ? text : text.slice(0, zone);
  if (address === "" || /[^0-9a-fA-F:.]/.test(address)) return undefined;
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0] ?? "", halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? "", true) : [];
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/** The groups of one side of `::`; `last`: this side ends the address (an IPv4 tail may end it). */
function groupsOf(side: string, last: boolean): number[] | undefined {
  if (side === "") return [];
  const pieces = side.split(":");
  const groups: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? "";
    if (last && i === pieces.length - 1 && piece.includes(".")) {
      const v4 = parseIpv4(piece);
      if (v4 === undefined) return undefined;
      groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
    groups.push(Number.parseInt(piece, 16));
  }
  return groups;
}
