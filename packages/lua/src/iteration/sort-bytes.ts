/** Groups of at most this many strings are finished by insertion sort. */
const INSERTION_MAX = 16;
/** Groups of at most this many strings are sorted by multikey quicksort, larger ones by radix. */
const QUICKSORT_MAX = 2048;

// Scratch shared by every sort (sorting never calls into Lua, so it is never re-entered).
/** The work stack: (lo, hi, depth) triples. */
let stack = new Int32Array(3 * 64);
/** 4-byte chunks of the group being sorted, and the string numbers beside them. */
let keysA = new Int32Array(256);
let keysB = new Int32Array(256);
let itemsA = new Int32Array(256);
let itemsB = new Int32Array(256);
/** One histogram of 256 counts per byte of a chunk. */
const counts = new Int32Array(4 * 256);

/**
 * Sorts `order[0..count)`, a list of string numbers, by the bytes of those strings: unsigned
 * bytewise, a proper prefix first (C `memcmp` order, which is Lua's `<` in the C locale and
 * code-point order for valid UTF-8). String `s` is `length[s]` bytes at `u8[start[s]]`.
 *
 * Most-significant-digit radix sort on 4-byte chunks: a group of strings that share their
 * first `depth` bytes is ordered by its next 4 bytes (zero-padded) with a least-significant
 * byte radix sort, which skips the bytes every string of the group shares; strings that tie
 * go on as a group at `depth + 4`. A group whose strings all ended is ordered by length (they
 * differ only by trailing NUL bytes). Groups of up to 2048 strings go to multikey quicksort
 * instead (a radix pass costs 1024 counters), and those of up to 16 to insertion sort. Each
 * string's bytes are read once per radix level, in order, and no comparison function runs per
 * step; explicit stacks keep any input from overflowing the JS stack.
 */
export function sortByteStrings(
  u8: Uint8Array,
  start: Int32Array,
  length: Int32Array,
  order: Int32Array,
  count: number,
): void {
  if (count < 2) return;
  let top = 0;
  stack[top++] = 0;
  stack[top++] = count;
  stack[top++] = 0;
  while (top > 0) {
    const depth = stack[--top] as number;
    const hi = stack[--top] as number;
    const lo = stack[--top] as number;
    if (hi - lo <= QUICKSORT_MAX) {
      quickSort(u8, start, length, order, lo, hi, depth);
      continue;
    }
    if (!sortGroup(u8, start, length, order, lo, hi, depth)) {
      sortByLength(length, order, lo, hi);
      continue;
    }
    // Strings with equal chunks go on as groups at depth + 4.
    const keys = keysA;
    const n = hi - lo;
    for (let g = 0; g < n; ) {
      const key = keys[g] as number;
      let e = g + 1;
      while (e < n && keys[e] === key) e++;
      if (e - g > 1) {
        if (top + 3 > stack.length) stack = grown(stack, top + 3);
        stack[top++] = lo + g;
        stack[top++] = lo + e;
        stack[top++] = depth + 4;
      }
      g = e;
    }
  }
}

/**
 * Orders `order[lo..hi)` by the 4 bytes of each string from `depth` on (zero-padded), leaving
 * the sorted chunks in `keysA[0..n)`. Returns false, doing nothing, when every string of the
 * group ended before `depth`.
 */
function sortGroup(
  u8: Uint8Array,
  start: Int32Array,
  length: Int32Array,
  order: Int32Array,
  lo: number,
  hi: number,
  depth: number,
): boolean {
  const n = hi - lo;
  if (keysA.length < n) {
    keysA = grown(keysA, n);
    keysB = grown(keysB, n);
    itemsA = grown(itemsA, n);
    itemsB = grown(itemsB, n);
  }
  let keys = keysA;
  let items = itemsA;
  counts.fill(0);
  let live = false;
  for (let i = 0; i < n; i++) {
    const s = order[lo + i] as number;
    const left = (length[s] as number) - depth;
    const p = (start[s] as number) + depth;
    let key: number;
    if (left >= 4) {
      key =
        ((u8[p] as number) << 24) |
        ((u8[p + 1] as number) << 16) |
        ((u8[p + 2] as number) << 8) |
        (u8[p + 3] as number);
    } else {
      key = 0;
      for (let k = 0; k < left; k++) key |= (u8[p + k] as number) << (24 - 8 * k);
    }
    if (left > 0) live = true;
    keys[i] = key;
    items[i] = s;
    counts[key & 255] = (counts[key & 255] as number) + 1;
    counts[256 + ((key >>> 8) & 255)] = (counts[256 + ((key >>> 8) & 255)] as number) + 1;
    counts[512 + ((key >>> 16) & 255)] = (counts[512 + ((key >>> 16) & 255)] as number) + 1;
    counts[768 + (key >>> 24)] = (counts[768 + (key >>> 24)] as number) + 1;
  }
  if (!live) return false;
  let otherKeys = keysB;
  let otherItems = itemsB;
  for (let digit = 0; digit < 4; digit++) {
    const base = digit * 256;
    const shift = digit * 8;
    // A byte that every string shares orders nothing: skip its pass.
    if (counts[base + (((keys[0] as number) >>> shift) & 255)] === n) continue;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = counts[base + b] as number;
      counts[base + b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const key = keys[i] as number;
      const at = base + ((key >>> shift) & 255);
      const to = counts[at] as number;
      counts[at] = to + 1;
      otherKeys[to] = key;
      otherItems[to] = items[i] as number;
    }
    const swapKeys = keys;
    keys = otherKeys;
    otherKeys = swapKeys;
    const swapItems = items;
    items = otherItems;
    otherItems = swapItems;
  }
  for (let i = 0; i < n; i++) order[lo + i] = items[i] as number;
  if (keys !== keysA) keysA.set(keys.subarray(0, n));
  return true;
}

/** The work stack of {@link quickSort}: (lo, hi, depth) triples. */
let quickStack = new Int32Array(3 * 64);

/**
 * Multikey quicksort (Bentley and Sedgewick's three-way radix quicksort) of `order[lo..hi)`,
 * whose strings share their first `depth` bytes: cheaper than a radix pass for small groups,
 * which pay for 1024 counters per pass. Small ranges finish with insertion sort.
 */
function quickSort(
  u8: Uint8Array,
  start: Int32Array,
  length: Int32Array,
  order: Int32Array,
  from: number,
  to: number,
  fromDepth: number,
): void {
  let top = 0;
  quickStack[top++] = from;
  quickStack[top++] = to;
  quickStack[top++] = fromDepth;
  while (top > 0) {
    let depth = quickStack[--top] as number;
    let hi = quickStack[--top] as number;
    let lo = quickStack[--top] as number;
    while (hi - lo > 1) {
      if (hi - lo <= INSERTION_MAX) {
        insertionSort(u8, start, length, order, lo, hi, depth);
        break;
      }
      const sa = order[lo] as number;
      const sb = order[(lo + hi) >>> 1] as number;
      const sc = order[hi - 1] as number;
      const pivot = median3(
        depth < (length[sa] as number) ? (u8[(start[sa] as number) + depth] as number) : -1,
        depth < (length[sb] as number) ? (u8[(start[sb] as number) + depth] as number) : -1,
        depth < (length[sc] as number) ? (u8[(start[sc] as number) + depth] as number) : -1,
      );
      let lt = lo;
      let gt = hi - 1;
      let i = lo;
      while (i <= gt) {
        const s = order[i] as number;
        const byte =
          depth < (length[s] as number) ? (u8[(start[s] as number) + depth] as number) : -1;
        if (byte < pivot) {
          order[i++] = order[lt] as number;
          order[lt++] = s;
        } else if (byte > pivot) {
          order[i] = order[gt] as number;
          order[gt--] = s;
        } else {
          i++;
        }
      }
      if (top + 6 > quickStack.length) quickStack = grown(quickStack, top + 6);
      if (lt - lo > 1) {
        quickStack[top++] = lo;
        quickStack[top++] = lt;
        quickStack[top++] = depth;
      }
      if (hi - gt - 1 > 1) {
        quickStack[top++] = gt + 1;
        quickStack[top++] = hi;
        quickStack[top++] = depth;
      }
      if (pivot < 0) {
        // Every string in the middle has ended: they differ at most by trailing NUL bytes
        // (a radix group ties on zero-padded chunks), so the shorter comes first.
        sortByLength(length, order, lt, gt + 1);
        break;
      }
      lo = lt;
      hi = gt + 1;
      depth++;
    }
  }
}

/** The median of three numbers. */
function median3(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/** Orders `order[lo..hi)` by string length (strings equal but for trailing NUL bytes). */
function sortByLength(length: Int32Array, order: Int32Array, lo: number, hi: number): void {
  const group = Array.from(order.subarray(lo, hi));
  group.sort((a, b) => (length[a] as number) - (length[b] as number));
  order.set(group, lo);
}

/** Insertion sort of `order[lo..hi)`, whose strings share their first `depth` bytes. */
function insertionSort(
  u8: Uint8Array,
  start: Int32Array,
  length: Int32Array,
  order: Int32Array,
  lo: number,
  hi: number,
  depth: number,
): void {
  for (let i = lo + 1; i < hi; i++) {
    const s = order[i] as number;
    let j = i - 1;
    while (j >= lo && compareFrom(u8, start, length, order[j] as number, s, depth) > 0) {
      order[j + 1] = order[j] as number;
      j--;
    }
    order[j + 1] = s;
  }
}

/** Compares strings `a` and `b` bytewise from byte `depth` on (negative when a sorts first). */
function compareFrom(
  u8: Uint8Array,
  start: Int32Array,
  length: Int32Array,
  a: number,
  b: number,
  depth: number,
): number {
  const la = length[a] as number;
  const lb = length[b] as number;
  const pa = start[a] as number;
  const pb = start[b] as number;
  const end = Math.min(la, lb);
  for (let i = depth; i < end; i++) {
    const diff = (u8[pa + i] as number) - (u8[pb + i] as number);
    if (diff !== 0) return diff;
  }
  return la - lb;
}

/**
 * Compares two byte ranges of `u8` (`la` bytes at `pa`, `lb` bytes at `pb`) bytewise; negative
 * when the first sorts first, 0 when equal.
 */
export function compareBytesAt(
  u8: Uint8Array,
  pa: number,
  la: number,
  pb: number,
  lb: number,
): number {
  const end = Math.min(la, lb);
  for (let i = 0; i < end; i++) {
    const diff = (u8[pa + i] as number) - (u8[pb + i] as number);
    if (diff !== 0) return diff;
  }
  return la - lb;
}

/** A copy of `array` at least `size` long (doubling). */
function grown(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  let length = array.length * 2;
  while (length < size) length *= 2;
  const copy = new Int32Array(length);
  copy.set(array);
  return copy;
}
