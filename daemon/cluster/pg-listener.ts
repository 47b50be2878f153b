// One connection that LISTENs on a PostgreSQL channel for as long as the node runs: reconnects
// with backoff when it is lost, and calls `connected` after every (re)connect, because PostgreSQL
// never replays what was notified while nobody listened (the caller re-reads then). A `SELECT 1`
// every `pingMs` finds a connection that died without a FIN or RST and replaces it.
// (config-follower.ts does the same for the config channel, with its poll folded in.)
import pg from 'pg';
import type { Logger } from 'pino';
import { Backoff } from './backoff.js';

export interface PgListenerOptions {
  url: string;
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  onNotify(payload: string): void;
  /** After each (re)connect, once LISTEN is in place. */
  connected(): void;
  logger: Logger;
  pingMs?: number;
}

export class PgListener {
  readonly #o: PgListenerOptions;
  readonly #backoff = new Backoff(500, 2_000); // recovery within 5 s of the database coming back (acceptance 7)
  #client: pg.Client | null = null;
  #drop: (error?: Error) => void = () => undefined;
  #retry: NodeJS.Timeout | null = null;
  readonly #ping: NodeJS.Timeout;
  #closed = false;

  constructor(o: PgListenerOptions) {
    this.#o = o;
    this.#ping = setInterval(() => void this.#pingNow(), o.pingMs ?? 5_000);
    this.#ping.unref();
    this.#connect();
  }

  get listening(): boolean {
    return this.#client !== null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#ping);
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #connect(): void {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#o.url, application_name: this.#o.applicationName, connectionTimeoutMillis: 5_000, query_timeout: 5_000, keepAlive: true });
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = null;
      client.end().catch(() => undefined);
      if (this.#closed) return;
      const delay = this.#backoff.next();
      this.#o.logger.warn({ err: error, retry_ms: delay, channel: this.#o.channel }, 'cluster: a LISTEN connection was lost; reconnecting');
      this.#retry = setTimeout(() => this.#connect(), delay);
      this.#retry.unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === this.#o.channel) this.#o.onNotify(message.payload ?? '');
    });
    void (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN ${this.#o.channel}`);
      } catch (error) {
        onLost(error as Error);
        return;
      }
      if (this.#closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#drop = onLost;
      this.#backoff.reset();
      this.#o.connected();
    })();
  }

  async #pingNow(): Promise<void> {
    const client = this.#client;
    if (client === null) return;
    try {
      await client.query('SELECT 1');
    } catch (error) {
      if (this.#client === client) this.#drop(error as Error);
    }
  }
}
