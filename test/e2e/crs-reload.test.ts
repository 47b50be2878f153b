// `wafctl daemon reload` switches the CRS release after `wafctl crs use`, without a restart: two
// releases installed from real signed archives (built from ../shared/crs4, one with a rule of its
// own), a real daemon, the CLI as a real process, requests through the edge to a real origin.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArchive, makeTestKey, sign } from '../crs/release-fixture.js';
import { newSandbox, quickStartFlags, stopAll, tempDir } from './daemon-harness.js';
import { edgeStatus, eventually } from './edge-sites.js';

const SITE = 'reload.example.test';
const ONLY_IN_NEW = '/only-in-4-29-here';
const NEW_RULE = `SecRule REQUEST_URI "@contains only-in-4-29-here" "id:9990200,phase:1,deny,status:403,log,msg:'only in 4.29.0'"\n`;

let dir: string;
let keyFile: string;
let origin: Server;
let originUrl: string;

beforeAll(async () => {
  dir = await tempDir('crs-reload-');
  const key = await makeTestKey(dir);
  keyFile = key.publicFile;
  for (const [version, extraRule] of [['4.28.0', undefined], ['4.29.0', NEW_RULE]] as const) {
    const archive = await buildArchive({ version, extraRule });
    const file = join(dir, `coreruleset-${version}.tar.gz`);
    writeFileSync(file, archive);
    writeFileSync(`${file}.asc`, await sign(archive, key));
  }
  origin = createServer((req, res) => { req.resume(); req.on('end', () => res.end('origin ok')); });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);



describe('daemon reload after crs use', () => {
  it('switches every site to the selected release at once and reports it; back again the same way', { timeout: 240_000 }, async () => {
    const d = await newSandbox();
    d.box.env.WAFCTL_CRS_TEST_KEY = keyFile;
    for (const version of ['4.28.0', '4.29.0']) {
      const install = await d.wafctl('crs', 'install', version, '--from', dir);
      expect(install.code, install.stderr).toBe(0);
    }
    expect(hintOf(await d.wafctl('crs', 'use', '4.28.0'))).toContain('wafctl daemon reload');
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout);
    expect(status.crs).toMatchObject({ found: true, version: '4.28.0' });
    const edge = status.ports.edge as number;
    expect((await d.wafctl('site', 'add', SITE, '--origin', originUrl)).code).toBe(0);
    await eventually(async () => (await edgeStatus(edge, SITE, '/?id=1%27%20OR%201=1--')) === 403, 'the site live with CRS 4.28.0');
    expect(await edgeStatus(edge, SITE, ONLY_IN_NEW)).toBe(200);

    const use = await d.wafctl('crs', 'use', '4.29.0');
    expect(use.code, use.stderr).toBe(0);
    expect(use.stderr).not.toMatch(/restart/);
    // Selected, not yet running: the edge switches on reload, not before.
    expect(await edgeStatus(edge, SITE, ONLY_IN_NEW)).toBe(200);
    const reload = await d.wafctl('daemon', 'reload');
    expect(reload.code, reload.stderr).toBe(0);
    expect(reload.stderr).toContain('the edge now runs CRS 4.29.0');
    // The reload answers once the edge runs the new sets: no waiting here.
    expect(await edgeStatus(edge, SITE, ONLY_IN_NEW)).toBe(403);
    expect(await edgeStatus(edge, SITE, '/?id=1%27%20OR%201=1--')).toBe(403);
    expect(JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout).crs).toMatchObject({ found: true, version: '4.29.0', dir: join(d.box.dataDir, 'crs', '4.29.0'), source: 'installed' });
    const rules = await d.wafctl('--json', '--site', SITE, 'rules', 'show');
    expect(rules.code, rules.stderr).toBe(0);
    expect(JSON.parse(rules.stdout).crs).toMatchObject({ found: true, version: '4.29.0', dir: join(d.box.dataDir, 'crs', '4.29.0') });

    // A reload with nothing new switches nothing and says so.
    const again = await d.wafctl('--json', 'daemon', 'reload');
    expect(JSON.parse(again.stdout).crs).toMatchObject({ version: '4.29.0', switched: false });

    expect((await d.wafctl('crs', 'use', '4.28.0')).code).toBe(0);
    const back = await d.wafctl('--json', 'daemon', 'reload');
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout).crs).toMatchObject({ version: '4.28.0', switched: true });
    expect(await edgeStatus(edge, SITE, ONLY_IN_NEW)).toBe(200);
  });
});

function hintOf(result: { code: number; stderr: string }): string {
  expect(result.code, result.stderr).toBe(0);
  return result.stderr;
}
