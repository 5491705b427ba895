import { runtimeError } from "../errors/runtime-error";
import { nonFiniteText } from "../json/number-text";
import { formatJsonPathStep } from "../json/path";
import { isValidUtf8At, KeyScratch, TableShape } from "../json-lua/table-keys";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import { VAR_REFUSALS, varMustBeJsonDataMessage, varTooLargeMessage } from "./messages";
import { getRawField, stringAt, typeNameAt } from "./raw-lua";
import { childPath, KIT_NULL, KIT_TARGETS, type VarContext } from "./var-context";

/**
 * Deepest level a table may sit at. var itself is level 1 and, like every view, adds no nesting
 * level of its own (json.encode(var.x) reads through it), so a value stored at var.x may nest
 * 127 levels, as a value json.encode accepts: levels 2 to 128.
 */
const MAX_DEPTH = 128;
/** Views read through in a row before the chain counts as a loop. */
const MAX_VIEW_CHAIN = 64;
/** Stack slots one table level may use. */
const SLOTS_PER_LEVEL = 16;

/** What the check learned about one data table, for the copy and for later places it appears. */
interface TableInfo {
  /** Values the table's walk spent, its views excepted. */
  readonly values: number;
  /** String bytes the table's walk spent. */
  readonly bytes: number;
  /** 1 for a table of scalars, one more per nesting level below. */
  readonly height: number;
  /** Whether it is written as an array (else an object). */
  readonly array: boolean;
  /** Its length when an array. */
  readonly length: number;
}

/** A step of the path to the value being checked: a list index, or a key's address and length. */
type Step = number | readonly [number, number];

/**
 * Converts a table assigned to a var field: checks it by json.encode's rules, order and
 * budgets, raising the first failure with its full path, then copies it into new storage tables
 * and views. Runs from JavaScript through the raw C API, so no metamethod and no Lua code runs
 * while it walks.
 *
 * A table reached again after its walk finished is not walked again in the check: its counts are
 * spent at once, so a table shared at every level of a deep nest runs the budget out in a few
 * steps instead of 2^40. The copy makes one copy per place the table appears (it is JSON data).
 */
export class VarConverter {
  private readonly ctx: VarContext;
  private base = "";
  private values = 0;
  private bytes = 0;
  private readonly steps: Step[] = [];
  private readonly onPath = new Set<number>();
  private readonly info = new Map<number, TableInfo>();
  private readonly scratches: KeyScratch[] = [];
  /** resolve's results. */
  private data = 0;
  private marked = false;
  private views = 0;

  constructor(ctx: VarContext) {
    this.ctx = ctx;
  }

  /**
   * Checks the table at `src` assigned at `path` (its level `level`), then pushes its copy's
   * view. `kit` is the index of the VM's kit. Raises the guard's refusal (a runtime error) when
   * the table is not JSON data or runs the budget out.
   */
  convert(L: LuaState, src: number, path: string, level: number, kit: number): void {
    this.base = path;
    this.values = 0;
    this.bytes = 0;
    this.steps.length = 0;
    for (const scratch of this.scratches) scratch?.forgetOrder();
    try {
      this.checkTable(L, src, level, kit);
      this.copy(L, src, path, level, kit);
    } finally {
      this.onPath.clear();
      this.info.clear();
    }
  }

  private pathText(): string {
    let text = this.base;
    const heap = this.ctx.kernel.heap.u8();
    for (const step of this.steps) {
      text += formatJsonPathStep(
        typeof step === "number" ? step : heap.slice(step[0], step[0] + step[1]),
      );
    }
    return text;
  }

  private fail(message: string): never {
    throw runtimeError(message);
  }

  private spend(values: number, bytes: number): void {
    this.values += values;
    this.bytes += bytes;
    if (this.values > this.ctx.maxValues || this.bytes > this.ctx.maxBytes) {
      this.fail(varTooLargeMessage(this.base));
    }
  }

  /**
   * Finds the table holding the data of the table at `t` (json.encode's rules: `sealed_targets`
   * first, then a view by the chapter's rule, no own entries with `__metatable` set and an
   * `__index` table) and leaves it in {@link data}, with {@link marked} and {@link views}. May
   * push slots; the caller restores the top.
   */
  private resolve(L: LuaState, t: number, kit: number): void {
    const { kernel, x } = this.ctx;
    let views = 0;
    for (;;) {
      x.lua_rawgeti(L, kit, KIT_TARGETS);
      x.lua_pushvalue(L, t);
      const target = x.lua_rawget(L, -2);
      if (target === LuaTypeTag.TABLE) {
        t = x.lua_gettop(L);
        if (++views > MAX_VIEW_CHAIN) this.fail(VAR_REFUSALS.containsItself(this.pathText()));
        continue;
      }
      x.lua_settop(L, -3);
      if (x.lua_getmetatable(L, t) === 0) break;
      const mt = x.lua_gettop(L);
      if (target === LuaTypeTag.BOOLEAN) this.unreadable(L, mt);
      if (this.ctx.isMarkerAt(L, mt, kit)) {
        x.lua_settop(L, mt - 1);
        this.data = t;
        this.marked = true;
        this.views = views;
        return;
      }
      x.lua_pushnil(L);
      if (x.lua_next(L, t) !== 0) {
        x.lua_settop(L, mt - 1);
        break;
      }
      const hasLabel = getRawField(kernel, L, mt, "__metatable") !== LuaTypeTag.NIL;
      const index = getRawField(kernel, L, mt, "__index");
      if (!hasLabel || (index !== LuaTypeTag.TABLE && index !== LuaTypeTag.FUNCTION)) {
        x.lua_settop(L, mt - 1);
        break;
      }
      if (index === LuaTypeTag.FUNCTION) this.unreadable(L, mt);
      t = mt + 2;
      if (++views > MAX_VIEW_CHAIN) this.fail(VAR_REFUSALS.containsItself(this.pathText()));
    }
    this.data = t;
    this.marked = false;
    this.views = views;
  }

  /** Raises `{path} cannot be read ({label}); ...` for the view whose metatable is at `mt`. */
  private unreadable(L: LuaState, mt: number): never {
    const { kernel } = this.ctx;
    const label =
      getRawField(kernel, L, mt, "__metatable") === LuaTypeTag.STRING
        ? kernel.readText(L, -1)
        : undefined;
    this.fail(VAR_REFUSALS.cannotRead(this.pathText(), label));
  }

  private scratchAt(level: number): KeyScratch {
    let scratch = this.scratches[level];
    if (scratch === undefined) {
      scratch = new KeyScratch();
      this.scratches[level] = scratch;
    }
    return scratch;
  }

  /** Checks the value at `idx` (at `level`); returns its height (0 for a scalar). */
  private checkValue(L: LuaState, idx: number, level: number, kit: number): number {
    const { kernel, x } = this.ctx;
    switch (x.lua_type(L, idx)) {
      case LuaTypeTag.TABLE:
        return this.checkTable(L, idx, level, kit);
      case LuaTypeTag.STRING: {
        const [ptr, length] = stringAt(kernel, L, idx);
        this.spend(1, length);
        if (!isValidUtf8At(kernel.heap.u8(), ptr, ptr + length)) {
          this.fail(VAR_REFUSALS.notUtf8(this.pathText()));
        }
        return 0;
      }
      case LuaTypeTag.NUMBER:
        this.spend(1, 0);
        if (x.lua_isinteger(L, idx) === 0) {
          const value = x.lua_tonumberx(L, idx, 0);
          if (!Number.isFinite(value)) {
            this.fail(VAR_REFUSALS.notFinite(this.pathText(), nonFiniteText(value)));
          }
        }
        return 0;
      case LuaTypeTag.BOOLEAN:
        this.spend(1, 0);
        return 0;
      case LuaTypeTag.LIGHTUSERDATA: {
        this.spend(1, 0);
        x.lua_rawgeti(L, kit, KIT_NULL);
        const isNull = x.lua_rawequal(L, idx, -1) !== 0;
        x.lua_settop(L, -2);
        if (!isNull) this.fail(varMustBeJsonDataMessage(this.pathText(), "lightuserdata"));
        return 0;
      }
      default:
        return this.fail(varMustBeJsonDataMessage(this.pathText(), typeNameAt(x, L, idx)));
    }
  }

  private checkTable(L: LuaState, idx: number, level: number, kit: number): number {
    const { kernel, x } = this.ctx;
    const top = x.lua_gettop(L);
    if (x.lua_checkstack(L, SLOTS_PER_LEVEL) === 0)
      throw new RangeError("the Lua stack cannot grow");
    this.resolve(L, idx, kit);
    const { data, marked, views } = this;
    const pointer = x.lua_topointer(L, data);
    if (this.onPath.has(pointer)) this.fail(VAR_REFUSALS.containsItself(this.pathText()));
    if (level > MAX_DEPTH) this.fail(VAR_REFUSALS.tooDeep(this.pathText()));
    const known = this.info.get(pointer);
    if (known !== undefined && level + known.height - 1 <= MAX_DEPTH) {
      this.spend(known.values + views, known.bytes);
      x.lua_settop(L, top);
      return known.height;
    }
    const values0 = this.values;
    const bytes0 = this.bytes;
    this.spend(1 + views, 0);
    this.onPath.add(pointer);
    const s = this.scratchAt(level);
    s.reset();
    x.lua_pushnil(L);
    while (x.lua_next(L, data) !== 0) {
      const type = x.lua_type(L, -2);
      if (type === LuaTypeTag.NUMBER && x.lua_isinteger(L, -2) !== 0) {
        s.addInt(x.lua_tonumberx(L, -2, 0), 0);
      } else if (type === LuaTypeTag.STRING) {
        const [ptr, length] = stringAt(kernel, L, -2);
        s.addString(ptr, length, 0);
      } else {
        s.addOther(type);
      }
      x.lua_settop(L, -2);
    }
    const shape = s.shape(marked);
    if (shape === TableShape.BAD_KEY) {
      this.fail(VAR_REFUSALS.keyType(this.pathText(), s.firstBadKeyType(marked)));
    }
    if (shape === TableShape.MIXED) this.fail(VAR_REFUSALS.mixes(this.pathText()));
    if (shape === TableShape.MISSING) {
      this.fail(VAR_REFUSALS.missingItem(this.pathText(), s.firstMissing()));
    }
    let height = 0;
    const steps = this.steps;
    if (shape === TableShape.ARRAY) {
      for (let i = 1; i <= s.nInt; i++) {
        steps.push(i);
        x.lua_rawgeti(L, data, BigInt(i));
        const h = this.checkValue(L, x.lua_gettop(L), level + 1, kit);
        if (h > height) height = h;
        x.lua_settop(L, -2);
        steps.pop();
      }
    } else {
      const order = s.sortStrings(kernel.heap.u8());
      const invalid = s.firstInvalidKey;
      if (invalid >= 0) {
        steps.push([s.strPtrs[invalid] as number, s.strLens[invalid] as number]);
        this.fail(VAR_REFUSALS.keyNotUtf8(this.pathText()));
      }
      for (const key of order) {
        const ptr = s.strPtrs[key] as number;
        const length = s.strLens[key] as number;
        this.spend(0, length);
        steps.push([ptr, length]);
        x.lua_pushlstring(L, ptr, length);
        x.lua_rawget(L, data);
        const h = this.checkValue(L, x.lua_gettop(L), level + 1, kit);
        if (h > height) height = h;
        x.lua_settop(L, -2);
        steps.pop();
      }
    }
    this.onPath.delete(pointer);
    this.info.set(pointer, {
      values: this.values - values0 - views,
      bytes: this.bytes - bytes0,
      height: height + 1,
      array: shape === TableShape.ARRAY,
      length: s.nInt,
    });
    x.lua_settop(L, top);
    return height + 1;
  }

  /** Pushes the view of a new storage copy of the checked table at `src`. */
  private copy(L: LuaState, src: number, path: string, level: number, kit: number): void {
    const { ctx } = this;
    const { kernel, x } = ctx;
    const top = x.lua_gettop(L);
    if (x.lua_checkstack(L, SLOTS_PER_LEVEL) === 0)
      throw new RangeError("the Lua stack cannot grow");
    this.resolve(L, src, kit);
    const data = this.data;
    const marked = this.marked;
    const info = this.info.get(x.lua_topointer(L, data));
    if (info === undefined) throw new Error("var: a table was copied before it was checked");
    x.lua_createtable(L, info.array ? info.length : 0, info.array ? 0 : 4);
    const storage = x.lua_gettop(L);
    if (marked) ctx.mark(L, storage, kit);
    ctx.pushView(L, storage, path, level, kit);
    const view = x.lua_gettop(L);
    if (info.array) {
      for (let i = 1; i <= info.length; i++) {
        if (x.lua_rawgeti(L, data, BigInt(i)) === LuaTypeTag.TABLE) {
          this.copy(L, x.lua_gettop(L), childPath(path, i), level + 1, kit);
          x.lua_rotate(L, -2, 1);
          x.lua_settop(L, -2);
        }
        x.lua_rawseti(L, storage, BigInt(i));
      }
    } else {
      x.lua_pushnil(L);
      while (x.lua_next(L, data) !== 0) {
        if (x.lua_type(L, -1) === LuaTypeTag.TABLE) {
          this.copy(L, x.lua_gettop(L), childPath(path, kernel.readText(L, -2)), level + 1, kit);
          x.lua_rotate(L, -2, 1);
          x.lua_settop(L, -2);
        }
        x.lua_pushvalue(L, -2);
        x.lua_rotate(L, -2, 1);
        x.lua_rawset(L, storage);
      }
    }
    x.lua_pushvalue(L, view);
    x.lua_rotate(L, top + 1, 1);
    x.lua_settop(L, top + 1);
  }
}
