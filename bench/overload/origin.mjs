// The bench origin, in its own process so the load generator does not starve it: 200 with a small
// body, after ORIGIN_DELAY_MS (default 0). Prints its port on stdout once listening.
import http from 'node:http';

const delay = Number(process.env.ORIGIN_DELAY_MS ?? 0);
const body = Buffer.from('<!doctype html><title>ok</title><p>origin says hello</p>\n');
const server = http.createServer((req, res) => {
  req.resume();
  const answer = () => { res.writeHead(200, { 'content-type': 'text/html', 'content-length': body.length }); res.end(body); };
  if (delay > 0) setTimeout(answer, delay); else answer();
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
