import type { LuaState } from "../module";
import type { HostFunction } from "./values";

/** A C function implemented in JavaScript with direct stack access (the package's own builtins). */
export type RawCFunction = (L: LuaState) => number;

/** One function a VM's closures can dispatch to. */
export type HostFunctionEntry =
  | { readonly kind: "host"; readonly name: string; readonly fn: HostFunction }
  | { readonly kind: "raw"; readonly name: string; readonly fn: RawCFunction };

/**
 * The functions one VM's Lua closures dispatch to. Every closure is the kernel's one dispatcher
 * with the entry's index as a light-userdata upvalue, so adding a function costs an array push
 * and no wasm compilation. A host function pushed twice (same JS function object) reuses its
 * entry. Entries live until the VM closes.
 */
export class HostFunctionTable {
  private readonly entries: HostFunctionEntry[] = [];
  private readonly indexByFunction = new Map<HostFunction | RawCFunction, number>();

  /** Adds `entry` (or finds the entry already made for its function) and returns its index. */
  add(entry: HostFunctionEntry): number {
    const known = this.indexByFunction.get(entry.fn);
    if (known !== undefined) return known;
    const index = this.entries.length;
    this.entries.push(entry);
    this.indexByFunction.set(entry.fn, index);
    return index;
  }

  /** The entry at `index`, if any. */
  get(index: number): HostFunctionEntry | undefined {
    return this.entries[index];
  }

  /** Number of entries. */
  get size(): number {
    return this.entries.length;
  }
}
