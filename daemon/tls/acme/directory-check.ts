import { get } from 'node:https';

// acme-client retries a refused connection for over a minute and then reports a TypeError from its
// own error handler: the directory is fetched here first, so an unreachable or wrong directory URL
// fails fast with a reason an operator can act on.

const TIMEOUT_MS = 15_000;

export function checkAcmeDirectory(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = get(url, { timeout: TIMEOUT_MS, headers: { accept: 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { if (body.length < 65_536) body += chunk; });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`the directory answered HTTP ${res.statusCode}`));
        try {
          const directory = JSON.parse(body) as { newOrder?: unknown };
          if (typeof directory.newOrder !== 'string') return reject(new Error('the URL answered JSON that is not an ACME directory (no newOrder)'));
          resolve();
        } catch {
          reject(new Error('the URL did not answer an ACME directory (not JSON)'));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) => reject(new Error(`cannot reach the directory: ${error.code ?? error.message}${error.code ? ` (${error.message})` : ''}`)));
  });
}
