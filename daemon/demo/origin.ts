import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// The demo origin (`daemon start --demo`): a tiny site to put the WAF in front of. A home page, a
// WordPress-like login form (the classic brute-force target) and /echo, which returns the request
// as JSON so you can see what the edge forwarded (Host, X-Forwarded-For, X-Request-Id...).

const MAX_ECHO_BODY = 64 * 1024;

const HOME = `<!doctype html>
<html><head><title>wafctl demo origin</title></head>
<body><h1>wafctl demo site</h1>
<p>This page comes from the demo origin behind the wafctl edge.</p>
<ul><li><a href="/wp-login.php">/wp-login.php</a> (a login form)</li><li><a href="/echo?q=hello">/echo</a> (shows the request)</li></ul>
</body></html>
`;

const LOGIN = `<!doctype html>
<html><head><title>Log In</title></head>
<body><form name="loginform" action="/wp-login.php" method="post">
<label>Username <input type="text" name="log"></label>
<label>Password <input type="password" name="pwd"></label>
<input type="submit" name="wp-submit" value="Log In">
</form></body></html>
`;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_ECHO_BODY) return text.slice(0, MAX_ECHO_BODY);
  }
  return text;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/echo') {
    const body = await readBody(req);
    send(res, 200, 'application/json', JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }, null, 2) + '\n');
  } else if (path === '/wp-login.php') {
    if (req.method === 'POST') {
      await readBody(req);
      send(res, 200, 'text/html; charset=utf-8', '<!doctype html><p>ERROR: the username or password is incorrect.</p>\n');
    } else {
      send(res, 200, 'text/html; charset=utf-8', LOGIN);
    }
  } else if (path === '/') {
    send(res, 200, 'text/html; charset=utf-8', HOME);
  } else {
    send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }
}

export interface DemoOrigin {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on loopback only: the demo origin is reached through the edge, never directly from outside. */
export async function startDemoOrigin(port: number): Promise<DemoOrigin> {
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(port, '127.0.0.1');
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => { throw error; })]);
  const bound = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
