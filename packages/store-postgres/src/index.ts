export { PgRunStore } from "./pg-run-store";
export {
  openPgStoreDatabase,
  type PgStoreDatabase,
  PgStoreDatabaseError,
  type PgStoreDatabaseOptions,
  type PgStoreOptions,
} from "./pg-store-database";
export { STORE_SCHEMA_VERSION } from "./schema";
