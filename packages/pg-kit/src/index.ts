export { inTransaction } from "./in-transaction";
export { loadPg } from "./load-pg";
export { migrateTables, type VersionedTables } from "./migrate-schema";
export { openPool, type PoolOptions } from "./open-pool";
export { errorCode, errorDetail, isConnectionLoss, isUnreachable } from "./pg-errors";
export { redactedUrl, redactedUserinfo } from "./redacted-url";
export { type SchemaLock, underSchemaLock } from "./schema-lock";
export { schemaNameProblem } from "./schema-name";
