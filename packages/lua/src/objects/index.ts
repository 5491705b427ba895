/** Opaque Engine values: full userdata made by Engine Lua (Tool objects, Pack objects, handles). */
export { ensureUserdataFactory, NEW_USERDATA_FIELD } from "./userdata-factory";
