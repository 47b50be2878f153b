// Where the cluster's PostgreSQL is, said without its password: what logs and messages may show.

export function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${user}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'an unparsable PostgreSQL URL';
  }
}
