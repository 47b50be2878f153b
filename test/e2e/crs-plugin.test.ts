// `wafctl crs plugin add|list|remove` end to end: a plugin from a directory and one served as a
// .tar.gz by a real HTTP server on 127.0.0.1, installed into a real daemon's data dir; the daemon
// switches through its admin socket, so a request the plugin's rule blocks is blocked through the
// real edge right after `add` and passes right after `remove`. Bad inputs change nothing.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArchive, makeTestKey, sign } from '../crs/release-fixture.js';
import { newSandbox, quickStartFlags, stopAll, tempDir, type E2eDaemon } from './daemon-harness.js';
import { edgeStatus, eventually } from './edge-sites.js';

let work: string;
let keyFile: string;
let archiveFile: string;
let origin: Server;
let originUrl: string;
/** Serves <work>/served/ over HTTP; anything else is 404. */
let files: Server;
let filesUrl: string;

/** A plugin laid out as CRS's plugin registry shapes it: <top>/plugins/<name>-{config,before}.conf. */
function pluginDir(top: string, name: string, rule: string): string {
  mkdirSync(join(top, 'plugins'), { recursive: true });
  writeFileSync(join(top, 'README.md'), `# ${name}\n`);
  writeFileSync(join(top, 'plugins', `${name}-config.conf`), `# ------\n# OWASP CRS Plugin\n# Plugin version: 1.0.3\n# ------\nSecAction "id:9990010,phase:1,nolog,pass,t:none,ver:'${name}-plugin/1.0.3',setvar:'tx.${name.replace(/-/g, '_')}_enabled=1'"\n`);
  writeFileSync(join(top, 'plugins', `${name}-before.conf`), rule);
  return top;
}
const blockRule = (id: number, marker: string) => `SecRule REQUEST_URI "@contains ${marker}" "id:${id},phase:1,deny,status:403,log,msg:'blocked by a test plugin'"\n`;

beforeAll(async () => {
  work = await tempDir('crs-plugin-');
  const key = await makeTestKey(work);
  keyFile = key.publicFile;
  const archive = await buildArchive();
  archiveFile = join(work, 'coreruleset-4.28.0.tar.gz');
  writeFileSync(archiveFile, archive);
  writeFileSync(`${archiveFile}.asc`, await sign(archive, key));

  // A release archive as GitHub serves one: one top directory, the plugin's plugins/ inside it.
  const stage = join(work, 'stage');
  pluginDir(join(stage, 'served-block-plugin-2.1.0'), 'served-block', blockRule(9990110, 'served-plugin-blocks'));
  mkdirSync(join(work, 'served'));
  await create({ gzip: true, cwd: stage, file: join(work, 'served', 'v2.1.0.tar.gz'), portable: true }, ['served-block-plugin-2.1.0']);

  files = createServer((req, res) => {
    try {
      res.end(readFileSync(join(work, 'served', (req.url ?? '').replace(/^\/+/, '').replace(/\.\./g, ''))));
    } catch {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  origin = createServer((req, res) => { req.resume(); req.on('end', () => res.end('origin ok')); });
  await Promise.all([files, origin].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  await stopAll();
  await Promise.all([files, origin].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
}, 60_000);



/** A daemon running the installed CRS 4.28.0 with one site live behind it. */
async function daemonWithSite(host: string): Promise<{ d: E2eDaemon; edge: number }> {
  const d = await newSandbox();
  d.box.env.WAFCTL_CRS_TEST_KEY = keyFile;
  expect((await d.wafctl('crs', 'install', '--from', archiveFile)).code).toBe(0);
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  const edge = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout).ports.edge as number;
  expect((await d.wafctl('site', 'add', host, '--origin', originUrl)).code).toBe(0);
  await eventually(async () => (await edgeStatus(edge, host, '/?id=1%27%20OR%201=1--')) === 403, `${host} live with CRS`);
  return { d, edge };
}

describe('crs plugin add, list, remove through a running daemon', () => {
  it('a plugin directory: blocked through the edge right after add, passes right after remove', { timeout: 180_000 }, async () => {
    const host = 'plugin-dir.example.test';
    const { d, edge } = await daemonWithSite(host);
    const source = pluginDir(join(work, 'dir-block-plugin'), 'dir-block', blockRule(9990100, 'dir-plugin-blocks'));
    expect(await edgeStatus(edge, host, '/dir-plugin-blocks')).toBe(200);

    const add = await d.wafctl('crs', 'plugin', 'add', source);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/installed CRS plugin dir-block 1\.0\.3 .*loads with CRS 4\.28\.0/);
    expect(add.stderr).toContain('the edge now runs CRS 4.28.0 with plugins dir-block');
    expect(await edgeStatus(edge, host, '/dir-plugin-blocks')).toBe(403);
    expect(JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout).crs.plugins).toEqual(['dir-block']);

    const list = JSON.parse((await d.wafctl('--json', 'crs', 'plugin', 'list')).stdout);
    expect(list).toEqual([expect.objectContaining({ name: 'dir-block', version: '1.0.3', source, path: join(d.box.dataDir, 'crs-plugins', 'dir-block') })]);
    expect((await d.wafctl('crs', 'plugin', 'list')).stdout).toMatch(/dir-block\s+1\.0\.3\s+/);

    const remove = await d.wafctl('crs', 'plugin', 'remove', 'dir-block');
    expect(remove.code, remove.stderr).toBe(0);
    expect(await edgeStatus(edge, host, '/dir-plugin-blocks')).toBe(200);
    expect(await edgeStatus(edge, host, '/?id=1%27%20OR%201=1--')).toBe(403);
    expect((await d.wafctl('--json', 'crs', 'plugin', 'list')).stdout.trim()).toBe('[]');
  });

  it('a .tar.gz over HTTP: installed from the URL, listed with it, blocking at once', { timeout: 180_000 }, async () => {
    const host = 'plugin-url.example.test';
    const { d, edge } = await daemonWithSite(host);
    const url = `${filesUrl}/v2.1.0.tar.gz`;
    const add = await d.wafctl('--json', 'crs', 'plugin', 'add', url);
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ name: 'served-block', version: '1.0.3', source: url });
    expect(await edgeStatus(edge, host, '/served-plugin-blocks')).toBe(403);
    expect(JSON.parse((await d.wafctl('--json', 'crs', 'plugin', 'list')).stdout)).toEqual([expect.objectContaining({ name: 'served-block', source: url })]);
  });
});

describe('crs plugin: bad inputs get a clear error and change nothing', () => {
  it('missing dir, no plugin files, a SecLang error, a 404 URL, a duplicate name, an unknown name', { timeout: 120_000 }, async () => {
    const d = await newSandbox();
    d.box.env.WAFCTL_CRS_TEST_KEY = keyFile;
    expect((await d.wafctl('crs', 'install', '--from', archiveFile)).code).toBe(0);
    const pluginsDir = join(d.box.dataDir, 'crs-plugins');
    const expectError = async (args: string[], code: string, message: RegExp) => {
      const result = await d.wafctl('crs', 'plugin', ...args);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^error: ${code}: ${message.source}`, 'm'));
    };

    await expectError(['add', join(work, 'no-such-dir')], 'crs_plugin_source_not_found', /.*no-such-dir does not exist/);
    const empty = join(work, 'not-a-plugin');
    mkdirSync(empty);
    writeFileSync(join(empty, 'README.md'), 'nothing here\n');
    await expectError(['add', empty], 'crs_plugin_invalid', /.*holds no CRS plugin/);
    const broken = pluginDir(join(work, 'broken-plugin'), 'broken', 'SecRule REQUEST_URI "@noSuchOperator x" "id:9990300,phase:1,deny"\n');
    await expectError(['add', broken], 'crs_plugin_rules_invalid', /the rules of plugin "broken" do not load: broken-before\.conf:1: unknown operator @nosuchoperator/);
    await expectError(['add', `${filesUrl}/missing.tar.gz`], 'crs_plugin_download_failed', /.*missing\.tar\.gz answered 404/);
    // Nothing was left behind by the failures, not even a temporary directory.
    expect(readdirSync(pluginsDir)).toEqual([]);

    const good = pluginDir(join(work, 'twice-plugin'), 'twice', blockRule(9990400, 'twice'));
    expect((await d.wafctl('crs', 'plugin', 'add', good)).code).toBe(0);
    await expectError(['add', good], 'crs_plugin_exists', /a CRS plugin named "twice" is already installed/);
    await expectError(['remove', 'nobody'], 'crs_plugin_not_installed', /no CRS plugin named "nobody" is installed/);
    expect(readdirSync(pluginsDir)).toEqual(['twice']);
  });
});
