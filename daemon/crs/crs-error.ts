// The one error the CRS installer and store throw: a stable code, a message a user can act on and,
// where it helps, a hint. The CLI turns it into its `error: <code>: <message>` line unchanged.

export class CrsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CrsError';
  }
}

/** What to do without the network or without a release archive (one line, two ways). */
export const OFFLINE_HINT =
  'download coreruleset-<version>.tar.gz and its .asc on a machine with access and run `wafctl crs install --from FILE`, or install Debian\'s package (`apt-get install modsecurity-crs`)';
