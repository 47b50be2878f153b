// A pooled connection taken for a transaction, with an 'error' listener for as long as it is out:
// a connection reset while a checked-out client waits between statements is emitted as an event,
// and an event nobody listens to would end the daemon. The statement in flight (or the next one)
// fails anyway, which is where the caller learns of it; release() with the error drops the client.
import type { Pool, PoolClient } from 'pg';

export interface CheckedOut {
  client: PoolClient;
  /** Gives the client back; a client that failed (or saw `error`) is destroyed, not reused. */
  release(error?: Error): void;
}

export async function checkout(pool: Pool): Promise<CheckedOut> {
  const client = await pool.connect();
  let seen: Error | undefined;
  const onError = (error: Error): void => { seen = error; };
  client.on('error', onError);
  return {
    client,
    release(error?: Error) {
      client.off('error', onError);
      client.release(error ?? seen);
    },
  };
}
