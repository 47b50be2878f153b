// A download's body must survive garbage collection between opening the feed and reading it.
// undici cancels a fetch body that nobody has started reading once its Response object is
// collected; the importer keeps only the body and awaits file-system steps before its first
// read, so an unlucky collection there once turned a real download into "the feed is empty".

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeed } from '../../../daemon/vulndb/feed-source.js';

const BODY = Buffer.from(`{"a": ${JSON.stringify('x'.repeat(100_000))}}`);
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A full collection now, and time for finalization callbacks to run. */
async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += chunk.length;
  return bytes;
}

describe('openFeed over HTTP', () => {
  it('keeps the whole body readable when the response object is collected before the first read', async () => {
    const feed = await openFeed(`${base}/feed.json`);
    // Let the body arrive and sit in the stream, as it does while the importer prepares its directory.
    await new Promise((r) => setTimeout(r, 50));
    await collectGarbage();
    expect(await readAll(feed.stream)).toBe(BODY.length);
  });

  it('can give a download up unread (an import failing before its first read): nothing more is read', async () => {
    const feed = await openFeed(`${base}/feed.json`);
    await feed.cancel();
    // The iterator sees an ended stream, and the next download from the same origin is whole.
    expect(await readAll(feed.stream)).toBe(0);
    expect(await readAll((await openFeed(`${base}/feed.json`)).stream)).toBe(BODY.length);
  });
});
