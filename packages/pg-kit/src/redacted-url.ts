const POSTGRES_SCHEME = /^postgres(ql)?:\/\//i;
/** A query parameter that carries a secret: `password=`, `sslpassword=` (pg's connection string). */
const SECRET_PARAMETER = /([?&][^=&#]*password=)[^&#]*/gi;

/**
 * A PostgreSQL URL for messages: its password (in the userinfo or a `password` query parameter)
 * replaced by `***`. Text that is not a postgres:// URL is never echoed as it is: what stands
 * before its last `@` (a user and password, whatever the scheme) is hidden, and text with no `@`
 * is not shown at all (it could be a password itself): `(not a postgres:// URL: ***@host/db)`,
 * `(not a postgres:// URL)`, `(an invalid postgres:// URL…)`.
 */
export function redactedUrl(url: string): string {
  const postgres = POSTGRES_SCHEME.test(url);
  const parsed = postgres ? parsedUrl(url) : undefined;
  if (parsed !== undefined) {
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString().replace(SECRET_PARAMETER, "$1***");
  }
  const what = postgres ? "an invalid postgres:// URL" : "not a postgres:// URL";
  return url.includes("@") ? `(${what}: ${redactedUserinfo(url)})` : `(${what})`;
}

/**
 * `text` with everything before its last `@` replaced by `***` and the value of each
 * `…password=` query parameter by `***`, so that a connection string of any shape, a URL or not,
 * shows no password: `runvil:secret@host/db` is `***@host/db`. Text with neither is unchanged.
 */
export function redactedUserinfo(text: string): string {
  const at = text.lastIndexOf("@");
  const rest = at === -1 ? text : `***@${text.slice(at + 1)}`;
  return rest.replace(SECRET_PARAMETER, "$1***");
}

function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
