/**
 * json.encode's walk over Lua values, done from JavaScript through the raw C API: no Lua code
 * runs and no metamethod is called, so the walk sees exactly the stored data.
 */

import { EngineError } from "../engine-error";
import type { JsonEncodeLimits } from "../json/limits";
import {
  cannotReadMessage,
  cannotReadPlaceholder,
  containsItselfMessage,
  DEBUG_PLACEHOLDERS,
  encodeLinesGotKeyMessage,
  hasKeyOfTypeMessage,
  keyNotValidUtf8Message,
  missingListItemMessage,
  mixesListItemsMessage,
  mustBeJsonDataMessage,
  nestedTooDeepMessage,
  notFiniteMessage,
  notValidUtf8Message,
  tooLargeMessage,
} from "../json/messages";
import { nonFiniteText } from "../json/number-text";
import { formatJsonPath, type JsonPathStep } from "../json/path";
import { decodeUtf8Lossy } from "../json/utf8";
import { JsonWriter } from "../json/writer";
import type { LuaState, Ptr } from "../module";
import { LuaTypeTag } from "../raw-api";
import { decodeUtf8, type LuaKernel } from "../vm/kernel";
import type { LuaExports } from "../wasm-exports";
import { debugObjectKeys, pushDebugKeyValue } from "./debug-keys";
import { ensureStack, pushName } from "./lua-api";
import { KeyScratch, TableShape } from "./table-keys";

/** How one encode call runs. */
export interface LuaEncodeSettings {
  /** The function named in messages: `json.encode` or `json.encode_lines`. */
  readonly functionName: string;
  /** Debug mode: placeholders instead of refusals (except the size refusal). */
  readonly debug: boolean;
  /** The depth limit and the size budget. */
  readonly limits: JsonEncodeLimits;
  /** Stack index (or upvalue pseudo-index) of the list marker. */
  readonly markerIndex: number;
  /** Stack index (or upvalue pseudo-index) of `sealed_targets`; 0 when there is none. */
  readonly targetsIndex: number;
  /** The VM's Lua memory limit in bytes (see ensureStack). */
  readonly memoryLimit: number;
}

/** resolveTable's result for a sealed view whose `__index` is a function. */
const UNREADABLE = -1;
/** resolveTable's result for views that lead back to themselves. */
const VIEW_LOOP = -2;

/** Past this many kept stack slots in one walk, values are fetched again instead of kept. */
const KEEP_LIMIT = 1 << 16;
/** Slots reserved at a time while keeping keys and values on the stack. */
const KEEP_CHUNK = 256;
/**
 * Free slots a key walk leaves above what it keeps: enough for a value's visit to fetch it,
 * read its metatable and resolve a sealed view (which reserves its own room beyond that).
 */
const SPARE_SLOTS = 16;

const TWO_POW_53 = 2 ** 53;

/** collectKeys' type for an integer key (beside the Lua type tags, which are all below 9). */
const INTEGER_KEY = 100;

/** Steps of a path: 0 for a list index, 1 for a string key. */
const STEP_INDEX = 0;
const STEP_KEY = 1;
const MAX_STEPS = 300;

/**
 * A table whose walk visited at least this many values keeps its text for the rest of the call, so
 * meeting it again copies the text instead of walking it again (a table shared at every level of a
 * deep nest is then linear in its depth, not in the size budget). Smaller tables are walked each
 * time: remembering them would cost more than it saves.
 */
const REUSE_MIN_VALUES = 64;

/** What one walk of a table spent and wrote, for meeting it again in the same call. */
interface TableText {
  /** Start and end of the table's text in the writer's output. */
  readonly start: number;
  readonly end: number;
  /** Values, string bytes and the path-key peak above the table's level spent inside it. */
  readonly values: number;
  readonly stringBytes: number;
  readonly keyPeak: number;
  /** Levels below the table its walk reached. */
  readonly height: number;
}

/** Writers larger than this after a call are dropped rather than kept for the next call. */
const KEEP_WRITER_BYTES = 4 * 1024 * 1024;

/**
 * Encodes Lua values as json.encode and json.encode_lines do. One encoder serves every call of a
 * process ({@link LuaJsonEncoder.begin} resets it, so a walk abandoned by an error or a Lua memory
 * error leaves nothing behind).
 *
 * The walk, per table: read through sealed views (the `sealed_targets` map first, then the
 * chapter's rule: no own entries, a metatable with `__index` and `__metatable`), check for a
 * cycle, then the depth, then walk the keys once with `lua_next`, keeping integer- and
 * string-keyed values on the stack (so the values need no second lookup), decide the table's
 * shape, and write its values in key order.
 */
export class LuaJsonEncoder {
  private readonly kernel: LuaKernel;
  private readonly x: LuaExports;
  private readonly nullAddress: Ptr;
  private strictWriter = new JsonWriter();
  private debugWriter = new JsonWriter({ debug: true });
  private writer: JsonWriter = this.strictWriter;
  private L: LuaState = 0;
  private fn = "json.encode";
  private debug = false;
  private maxDepth = 127;
  private maxValues = 0;
  private maxStringBytes = 0;
  private maxPathKeys = 0;
  private memoryLimit = 0;
  private markerIndex = 0;
  private targetsIndex = 0;
  private values = 0;
  private stringBytes = 0;
  private pathKeys = 0;
  /** The most path keys seen since the walk of the innermost remembered table began. */
  private keyPeak = 0;
  /** The deepest table level entered so far in this call. */
  private deepest = 0;
  /** Placeholders written for a cycle or a too-deep table (their text depends on the path). */
  private contextual = 0;
  /** Tables already written in this call whose text can be copied (see REUSE_MIN_VALUES). */
  private readonly texts = new Map<number, TableText>();
  private keepBase = 0;
  /** The highest stack index known to be available in this call (see reserve). */
  private reserved = 0;
  /** The stack top after resolveTable (helper slots of views read through included). */
  private resolvedTop = 0;
  private marked = false;
  private unreadableLabel: string | undefined;
  private readonly ancestors: number[] = [];
  private readonly viewChain: number[] = [];
  private readonly stepKinds = new Uint8Array(MAX_STEPS);
  private readonly stepNums = new Float64Array(MAX_STEPS);
  private readonly stepLens = new Int32Array(MAX_STEPS);
  private steps = 0;
  private readonly scratches: KeyScratch[] = [];

  constructor(kernel: LuaKernel, x: LuaExports, nullAddress: Ptr) {
    this.kernel = kernel;
    this.x = x;
    this.nullAddress = nullAddress;
  }

  /** Starts a call on thread `L`. */
  begin(L: LuaState, settings: LuaEncodeSettings): void {
    this.L = L;
    this.fn = settings.functionName;
    this.debug = settings.debug;
    this.writer = settings.debug ? this.debugWriter : this.strictWriter;
    this.writer.reset();
    const { limits } = settings;
    this.maxDepth = limits.maxDepth;
    this.maxValues = limits.maxValues;
    this.maxStringBytes = limits.maxStringBytes;
    this.maxPathKeys = limits.maxPathKeys;
    this.markerIndex = settings.markerIndex;
    this.targetsIndex = settings.targetsIndex;
    this.memoryLimit = settings.memoryLimit;
    this.values = 0;
    this.stringBytes = 0;
    this.pathKeys = 0;
    this.keyPeak = 0;
    this.deepest = 0;
    this.contextual = 0;
    this.texts.clear();
    this.ancestors.length = 0;
    this.steps = 0;
    for (const scratch of this.scratches) scratch.forgetOrder();
    this.keepBase = this.x.lua_gettop(L);
    this.reserved = 0;
  }

  /** The text written by the call (a view, valid until the next call). */
  output(): Uint8Array {
    return this.writer.bytes();
  }

  /** Ends a call: drops an oversized output buffer. */
  end(): void {
    if (this.writer.byteLength > KEEP_WRITER_BYTES) {
      if (this.debug) this.debugWriter = new JsonWriter({ debug: true });
      else this.strictWriter = new JsonWriter();
    }
    this.writer.reset();
    this.texts.clear();
  }

  /** json.encode: writes the value at absolute index `index` (nil or none: `null`). */
  encodeValue(index: number): void {
    this.visit(index, 1, this.x.lua_gettop(this.L));
  }

  /**
   * json.encode_lines: writes each item of the list at absolute index `index` (a table) as a
   * record ending in `\n`. The list's argument errors raise in debug mode too.
   */
  encodeLines(index: number): void {
    const { x } = this;
    const L = this.L;
    const top = x.lua_gettop(L);
    this.spendValue();
    this.reserve(top, SPARE_SLOTS, true);
    const t = this.resolveTable(index, top);
    if (t === UNREADABLE) this.fail(cannotReadMessage(this.fn, "value", this.unreadableLabel));
    if (t === VIEW_LOOP) this.fail(containsItselfMessage(this.fn, "value"));
    const marked = this.marked;
    this.ancestors.push(x.lua_topointer(L, t));
    const s = this.scratchAt(0);
    const itemsTop = this.collectKeys(t, s, this.resolvedTop);
    if (!marked && s.nInt === 0 && s.size > 0) {
      this.fail(encodeLinesGotKeyMessage(s.firstKeyType()));
    }
    const shape = s.shape(marked);
    if (shape === TableShape.BAD_KEY) {
      this.fail(hasKeyOfTypeMessage(this.fn, "value", s.firstBadKeyType(marked)));
    }
    if (shape === TableShape.MIXED) this.fail(mixesListItemsMessage(this.fn, "value"));
    if (shape === TableShape.MISSING) {
      this.fail(missingListItemMessage(this.fn, "value", s.firstMissing()));
    }
    this.writeItems(t, s, 0, itemsTop, true);
    x.lua_settop(L, top);
  }

  // ---- values ----

  /** Writes the value at absolute `index`; `top` is the stack top (at or above `index`). */
  private visit(index: number, level: number, top: number): void {
    const { x } = this;
    const L = this.L;
    const writer = this.writer;
    if (++this.values > this.maxValues) this.tooLarge();
    switch (x.lua_type(L, index)) {
      case LuaTypeTag.STRING: {
        const lenCell = this.kernel.lenCell;
        const ptr = x.lua_tolstring(L, index, lenCell);
        const len = this.kernel.heap.u32()[lenCell >>> 2] ?? 0;
        this.stringBytes += len;
        if (this.stringBytes > this.maxStringBytes) this.tooLarge();
        if (!writer.stringBytes(this.kernel.heap.u8(), ptr, ptr + len)) {
          this.refuse(notValidUtf8Message);
        }
        return;
      }
      case LuaTypeTag.NUMBER: {
        const d = x.lua_tonumberx(L, index, 0);
        if (x.lua_isinteger(L, index) !== 0) {
          writer.integer(d > -TWO_POW_53 && d < TWO_POW_53 ? d : x.lua_tointegerx(L, index, 0));
        } else if (!writer.float(d)) {
          const text = nonFiniteText(d);
          this.refuse((fn, path) => notFiniteMessage(fn, path, text));
        }
        return;
      }
      case LuaTypeTag.TABLE:
        this.visitTable(index, level, top);
        return;
      case LuaTypeTag.BOOLEAN:
        writer.boolean(x.lua_toboolean(L, index) !== 0);
        return;
      case LuaTypeTag.LIGHTUSERDATA:
        if (x.lua_touserdata(L, index) === this.nullAddress) writer.null();
        else this.notData("lightuserdata", DEBUG_PLACEHOLDERS.userdata);
        return;
      case LuaTypeTag.FUNCTION:
        this.notData("function", DEBUG_PLACEHOLDERS.function);
        return;
      case LuaTypeTag.USERDATA:
        this.notData("userdata", DEBUG_PLACEHOLDERS.userdata);
        return;
      case LuaTypeTag.THREAD:
        this.notData("thread", DEBUG_PLACEHOLDERS.thread);
        return;
      default:
        writer.null();
    }
  }

  private notData(type: string, placeholder: string): void {
    if (this.debug) this.writer.string(placeholder);
    else this.refuse((fn, path) => mustBeJsonDataMessage(fn, path, type));
  }

  // ---- tables ----

  private visitTable(index: number, level: number, top: number): void {
    const { x } = this;
    const L = this.L;
    if (top + SPARE_SLOTS > this.reserved) this.reserve(top, SPARE_SLOTS, true);
    const t = this.resolveTable(index, top);
    const pointer = t > 0 ? x.lua_topointer(L, t) : 0;
    if (t === UNREADABLE) {
      const label = this.unreadableLabel;
      if (this.debug) this.writer.string(cannotReadPlaceholder(label));
      else this.refuse((fn, path) => cannotReadMessage(fn, path, label));
    } else if (t === VIEW_LOOP || this.ancestors.includes(pointer)) {
      this.contextual++;
      if (this.debug) this.writer.string(DEBUG_PLACEHOLDERS.cycle);
      else this.refuse(containsItselfMessage);
    } else if (level > this.maxDepth) {
      this.contextual++;
      if (this.debug) this.writer.string(DEBUG_PLACEHOLDERS.tooDeep);
      else this.refuse((fn, path) => nestedTooDeepMessage(fn, path, this.maxDepth));
    } else if (!this.copyText(pointer, level)) {
      const marked = this.marked;
      this.ancestors.push(pointer);
      this.writeRemembered(pointer, t, level, marked);
      this.ancestors.pop();
    }
    x.lua_settop(L, top);
  }

  /**
   * Writes a table met before in this call by copying its text, when the walk would write the
   * same text: it is no deeper than the depth limit allows here and its keys fit the path-key
   * budget from here. Its values and string bytes are spent as the walk would spend them, so the
   * size refusal comes as it would. (No Lua runs during a walk, so a table cannot change between
   * two meetings; a remembered table holds no cycle and no placeholder whose text depends on the
   * path, see writeRemembered.)
   */
  private copyText(pointer: number, level: number): boolean {
    const text = this.texts.get(pointer);
    if (text === undefined) return false;
    if (level + text.height > this.maxDepth) return false;
    if (this.pathKeys + text.keyPeak > this.maxPathKeys) return false;
    this.values += text.values;
    if (this.values > this.maxValues) this.tooLarge();
    this.stringBytes += text.stringBytes;
    if (this.stringBytes > this.maxStringBytes) this.tooLarge();
    if (level + text.height > this.deepest) this.deepest = level + text.height;
    if (this.pathKeys + text.keyPeak > this.keyPeak) this.keyPeak = this.pathKeys + text.keyPeak;
    this.writer.copyValue(text.start, text.end);
    return true;
  }

  /** Writes a table and remembers its text when it is large and free of path-dependent text. */
  private writeRemembered(pointer: number, t: number, level: number, marked: boolean): void {
    const writer = this.writer;
    const values = this.values;
    const stringBytes = this.stringBytes;
    const contextual = this.contextual;
    const outerPeak = this.keyPeak;
    const outerDeepest = this.deepest;
    const keysAtStart = this.pathKeys;
    this.keyPeak = keysAtStart;
    this.deepest = level;
    let start = writer.byteLength;
    this.writeTable(t, level, marked, this.resolvedTop);
    // The text starts after the separator the writer put before it, if any.
    if (writer.byteAt(start) === 0x2c) start++;
    const spent = this.values - values;
    if (spent >= REUSE_MIN_VALUES && this.contextual === contextual) {
      this.texts.set(pointer, {
        start,
        end: writer.byteLength,
        values: spent,
        stringBytes: this.stringBytes - stringBytes,
        keyPeak: this.keyPeak - keysAtStart,
        height: this.deepest - level,
      });
    }
    if (outerPeak > this.keyPeak) this.keyPeak = outerPeak;
    if (outerDeepest > this.deepest) this.deepest = outerDeepest;
  }

  /**
   * Makes sure `n` slots are free above `top` (the current stack top), asking Lua only when the
   * room reserved earlier in this call does not cover them. Returns false when Lua cannot grow
   * the stack and `must` is false; with `must`, raises Lua's memory error instead (ensureStack).
   */
  private reserve(top: number, n: number, must: boolean): boolean {
    if (top + n <= this.reserved) return true;
    if (this.x.lua_checkstack(this.L, n) === 0) {
      if (!must) return false;
      ensureStack(this.x, this.L, n, this.memoryLimit);
    }
    this.reserved = top + n;
    return true;
  }

  /**
   * Reads through sealed views from the table at `index`: returns the absolute index of the table
   * whose entries are encoded (helper slots stay on the stack for the caller to drop), with
   * {@link marked} telling whether it carries the list marker; or UNREADABLE (label in
   * {@link unreadableLabel}) or VIEW_LOOP.
   */
  private resolveTable(index: number, top: number): number {
    const { x } = this;
    const L = this.L;
    let t = index;
    let hops = 0;
    let mt = top;
    this.resolvedTop = top;
    for (;;) {
      if (x.lua_getmetatable(L, t) === 0) {
        this.marked = false;
        return t;
      }
      mt++;
      if (x.lua_rawequal(L, -1, this.markerIndex) !== 0) {
        x.lua_settop(L, -2);
        this.marked = true;
        return t;
      }
      this.reserve(mt, 8, true);
      let next = 0;
      if (this.targetsIndex !== 0) {
        x.lua_pushvalue(L, t);
        if (x.lua_rawget(L, this.targetsIndex) === LuaTypeTag.TABLE) next = mt + 1;
      }
      if (next === 0) {
        x.lua_settop(L, mt);
        x.lua_pushnil(L);
        if (x.lua_next(L, t) !== 0) {
          x.lua_settop(L, mt - 1);
          this.marked = false;
          this.resolvedTop = mt - 1;
          return t;
        }
        pushName(this.kernel, L, "__metatable");
        const hasLabel = x.lua_rawget(L, mt) !== LuaTypeTag.NIL;
        pushName(this.kernel, L, "__index");
        const indexType = x.lua_rawget(L, mt);
        if (!hasLabel || (indexType !== LuaTypeTag.TABLE && indexType !== LuaTypeTag.FUNCTION)) {
          x.lua_settop(L, mt - 1);
          this.marked = false;
          this.resolvedTop = mt - 1;
          return t;
        }
        if (indexType === LuaTypeTag.FUNCTION) {
          this.unreadableLabel =
            x.lua_type(L, mt + 1) === LuaTypeTag.STRING
              ? decodeUtf8Lossy(this.kernel.readBytes(L, mt + 1))
              : undefined;
          return UNREADABLE;
        }
        next = mt + 2;
      }
      // A view read through: it counts as a value and adds no level.
      const view = x.lua_topointer(L, t);
      if (hops === 0) this.viewChain.length = 0;
      else if (this.viewChain.includes(view)) return VIEW_LOOP;
      this.viewChain.push(view);
      hops++;
      if (++this.values > this.maxValues) this.tooLarge();
      t = next;
      // The view's helper slots stay below the data table, which is now the top.
      mt = next;
      this.resolvedTop = next;
    }
  }

  private scratchAt(level: number): KeyScratch {
    const scratches = this.scratches;
    while (scratches.length <= level) scratches.push(new KeyScratch());
    return scratches[level] as KeyScratch;
  }

  /**
   * Walks the keys of the table at absolute index `t` into `s`, keeping the values of integer and
   * string keys on the stack above `top` (the current top) while the keep budget lasts, and
   * spending the path-key budget. Returns the new stack top, with at least SPARE_SLOTS free
   * above it.
   */
  private collectKeys(t: number, s: KeyScratch, top: number): number {
    const { x, kernel } = this;
    const L = this.L;
    s.reset();
    let keep =
      top - this.keepBase < KEEP_LIMIT && this.reserve(top, KEEP_CHUNK + SPARE_SLOTS, false);
    if (!keep) this.reserve(top, SPARE_SLOTS, true);
    x.lua_pushnil(L);
    let k = top + 1;
    let room = KEEP_CHUNK / 2;
    // Whether the last key was a string: test for one first (objects), else for an integer.
    let stringFirst = false;
    while (x.lua_next(L, t) !== 0) {
      if (keep && room === 0) {
        keep = k - this.keepBase < KEEP_LIMIT && this.reserve(k, KEEP_CHUNK + SPARE_SLOTS, false);
        room = KEEP_CHUNK / 2;
      }
      let type: number;
      if (stringFirst) {
        type = x.lua_type(L, -2);
        if (type === LuaTypeTag.NUMBER && x.lua_isinteger(L, -2) !== 0) type = INTEGER_KEY;
      } else {
        type = x.lua_isinteger(L, -2) !== 0 ? INTEGER_KEY : x.lua_type(L, -2);
      }
      if (type === INTEGER_KEY) {
        s.addInt(x.lua_tonumberx(L, -2, 0), keep ? k + 1 : 0);
        stringFirst = false;
      } else if (type === LuaTypeTag.STRING) {
        const ptr = x.lua_tolstring(L, -2, kernel.lenCell);
        s.addString(ptr, kernel.heap.u32()[kernel.lenCell >>> 2] ?? 0, keep ? k + 1 : 0);
        s.pathKeys++;
        if (++this.pathKeys > this.maxPathKeys) this.tooLarge();
        if (this.pathKeys > this.keyPeak) this.keyPeak = this.pathKeys;
        stringFirst = true;
      } else {
        s.addOther(type);
        if (type !== LuaTypeTag.NUMBER && type !== LuaTypeTag.BOOLEAN) {
          s.pathKeys++;
          if (++this.pathKeys > this.maxPathKeys) this.tooLarge();
          if (this.pathKeys > this.keyPeak) this.keyPeak = this.pathKeys;
        }
        x.lua_settop(L, -2);
        continue;
      }
      if (keep) {
        x.lua_pushvalue(L, -2);
        k += 2;
        room--;
      } else {
        x.lua_settop(L, -2);
      }
    }
    return k - 1;
  }

  /** Writes the table at absolute `t` (the stack top is `top`) at `level`. */
  private writeTable(t: number, level: number, marked: boolean, top: number): void {
    const s = this.scratchAt(level);
    const itemsTop = this.collectKeys(t, s, top);
    const shape = s.shape(marked);
    if (shape === TableShape.ARRAY) {
      const writer = this.writer;
      writer.beginArray();
      this.writeItems(t, s, level, itemsTop, false);
      writer.endArray();
    } else if (shape === TableShape.OBJECT) {
      this.writeObject(t, s, level, itemsTop);
    } else if (this.debug) {
      this.writeDebugObject(t, level, itemsTop);
    } else if (shape === TableShape.BAD_KEY) {
      const type = s.firstBadKeyType(marked);
      this.refuse((fn, path) => hasKeyOfTypeMessage(fn, path, type));
    } else if (shape === TableShape.MIXED) {
      this.refuse(mixesListItemsMessage);
    } else {
      const missing = s.firstMissing();
      this.refuse((fn, path) => missingListItemMessage(fn, path, missing));
    }
    this.pathKeys -= s.pathKeys;
  }

  /**
   * Writes items 1..n of the list at absolute index `t` whose keys are in `s`, at `level` + 1;
   * as JSON Lines records (`lines`) for json.encode_lines.
   */
  private writeItems(t: number, s: KeyScratch, level: number, top: number, lines: boolean): void {
    const { x } = this;
    const L = this.L;
    const n = s.nInt;
    let slots = s.intSlots;
    if (!s.intOrdered) {
      const byIndex = new Int32Array(n);
      for (let j = 0; j < n; j++) byIndex[(s.intKeys[j] as number) - 1] = s.intSlots[j] as number;
      slots = byIndex;
    }
    const step = this.pushStep(STEP_INDEX, 0, 0);
    for (let j = 0; j < n; j++) {
      this.stepNums[step] = j + 1;
      const slot = slots[j] as number;
      if (slot !== 0) {
        this.visit(slot, level + 1, top);
      } else {
        x.lua_rawgeti(L, t, BigInt(j + 1));
        this.visit(top + 1, level + 1, top + 1);
        x.lua_settop(L, top);
      }
      if (lines) this.writer.endRecord();
    }
    this.steps--;
  }

  private writeObject(t: number, s: KeyScratch, level: number, top: number): void {
    const { x, kernel } = this;
    const L = this.L;
    const n = s.nStr;
    const writer = this.writer;
    if (n === 0) {
      writer.beginObject();
      writer.endObject();
      return;
    }
    const heap = kernel.heap.u8();
    const order = s.sortStrings(heap);
    const invalid = s.firstInvalidKey;
    if (invalid >= 0) {
      if (this.debug) {
        this.writeDebugObject(t, level, top);
        return;
      }
      this.pushStep(STEP_KEY, s.strPtrs[invalid] as number, s.strLens[invalid] as number);
      this.refuse(keyNotValidUtf8Message);
    }
    writer.beginObject();
    const reuse = s.reused;
    if (!reuse) s.keyTexts.length = 0;
    const step = this.pushStep(STEP_KEY, 0, 0);
    for (let i = 0; i < n; i++) {
      const key = order[i] as number;
      const ptr = s.strPtrs[key] as number;
      const len = s.strLens[key] as number;
      this.stringBytes += len;
      if (this.stringBytes > this.maxStringBytes) this.tooLarge();
      // The member name as a JS string, made once per shape of table (records of a list share
      // it): the writer copies a JS string with no per-key allocation.
      let name = reuse ? s.keyTexts[i] : undefined;
      if (name === undefined) {
        name = decodeUtf8(kernel.heap.u8(), ptr, len);
        s.keyTexts[i] = name;
      }
      writer.key(name);
      this.stepNums[step] = ptr;
      this.stepLens[step] = len;
      const slot = s.strSlots[key] as number;
      if (slot !== 0) {
        this.visit(slot, level + 1, top);
      } else {
        x.lua_pushlstring(L, ptr, len);
        x.lua_rawget(L, t);
        this.visit(top + 1, level + 1, top + 1);
        x.lua_settop(L, top);
      }
    }
    this.steps--;
    writer.endObject();
  }

  /** Debug mode's object for a table that breaks the key rules (see debugObjectKeys). */
  private writeDebugObject(t: number, level: number, top: number): void {
    const { x, kernel } = this;
    const L = this.L;
    const writer = this.writer;
    const keys = debugObjectKeys(kernel, L, t);
    writer.beginObject();
    for (const key of keys) {
      writer.key(key.text);
      this.stringBytes += writer.lastStringBytes;
      if (this.stringBytes > this.maxStringBytes) this.tooLarge();
      pushDebugKeyValue(kernel, L, t, key);
      this.visit(top + 1, level + 1, top + 1);
      x.lua_settop(L, top);
    }
    writer.endObject();
  }

  // ---- paths, budget and refusals ----

  private pushStep(kind: number, num: number, len: number): number {
    const step = this.steps++;
    this.stepKinds[step] = kind;
    this.stepNums[step] = num;
    this.stepLens[step] = len;
    return step;
  }

  private path(): string {
    const heap = this.kernel.heap.u8();
    const steps: JsonPathStep[] = [];
    for (let i = 0; i < this.steps; i++) {
      const num = this.stepNums[i] as number;
      steps.push(
        this.stepKinds[i] === STEP_KEY ? heap.slice(num, num + (this.stepLens[i] as number)) : num,
      );
    }
    return formatJsonPath(steps);
  }

  private refuse(message: (fn: string, path: string) => string): never {
    this.fail(message(this.fn, this.path()));
  }

  private fail(message: string): never {
    throw new EngineError("lua", message);
  }

  private spendValue(): void {
    if (++this.values > this.maxValues) this.tooLarge();
  }

  private tooLarge(): never {
    this.fail(tooLargeMessage(this.fn));
  }
}
