const PLAIN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Why `schema` cannot name the PostgreSQL schema a pool works in, or undefined for a plain name
 * (a lower-case letter or `_`, then letters, digits and `_`, at most 63): it goes into SQL text
 * and the connection's `search_path` unquoted.
 */
export function schemaNameProblem(schema: string): string | undefined {
  return PLAIN.test(schema) ? undefined : `${schema} is not a plain schema name (a-z, 0-9, _)`;
}
