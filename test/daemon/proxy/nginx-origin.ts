import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, listening } from '../../support/nginx-listening.js';

// A real nginx as the origin (the system's nginx binary, one process, its own temp dir), whose
// answer says how nginx itself routed the request: `PROTECTED <uri>` for what it serves under a
// protected location, `OPEN <uri>` for the rest ($uri is nginx's decoded, normalised path).

export const nginxAvailable = !spawnSync('nginx', ['-v']).error;

export interface NginxOrigin {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts nginx with `location ^~ <p>/` and `location = <p>` answering PROTECTED for each prefix. */
export async function startNginxOrigin(protectedPrefixes: string[]): Promise<NginxOrigin> {
  const dir = mkdtempSync(join(tmpdir(), 'wafctl-nginx-'));
  // nginx cannot listen on port 0: take a free port from the kernel and retry if another process wins it meanwhile.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const locations = protectedPrefixes.map((p) => `location ^~ ${p}/ { return 200 "PROTECTED $uri\\n"; } location = ${p} { return 200 "PROTECTED $uri\\n"; }`).join('\n    ');
    writeFileSync(join(dir, 'nginx.conf'), `
daemon off; master_process off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi; default_type text/plain;
  server {
    listen 127.0.0.1:${port};
    ${locations}
    location / { return 200 "OPEN $uri\\n"; }
  }
}
`);
    const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    if (await listening(port, child)) {
      return {
        url: `http://127.0.0.1:${port}`, port,
        close: () => new Promise((resolve) => {
          child.once('exit', () => { rmSync(dir, { recursive: true, force: true }); resolve(); });
          child.kill('SIGTERM');
        }),
      };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error('nginx did not start');
}
