/** The URL with its password replaced by `***`, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(an invalid URL)";
  }
}
