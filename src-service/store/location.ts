/**
 * Where the service's data is: a SQLite file (the embedded default) or a PostgreSQL database, named by a
 * connection string. A connection string may carry a password; it is never written to a log or a
 * message (`describeLocation` leaves it out).
 */
export type StoreLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** True for a postgres:// or postgresql:// connection string. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(text);
}

/** The password a connection string carries, if any (from its user-info or a `password` parameter). */
export function urlPassword(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.password !== '') return decodeURIComponent(parsed.password);
  return parsed.searchParams.get('password') ?? undefined;
}

/** The location for messages and logs: a file's path, or the database's address without its password. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return location.file;
  try {
    const url = new URL(location.url);
    url.password = '';
    url.searchParams.delete('password');
    return url.toString();
  } catch {
    return 'a PostgreSQL database (its connection string cannot be parsed)';
  }
}
