// End to end: `wafctl logs --tui` as a real process in a real terminal (tmux, 120x30)
// against a real daemon with WAF events ingested through the ingestion API: keys are sent with
// `tmux send-keys`, the screen is read with `tmux capture-pane -p`. Also `wafctl logs --follow`
// on a pipe, streaming events ingested while it runs. tmux is required in CI (.ci/run installs it).
// The views name their site (--site): the follow test streams a site of its own, so no test sees
// another's events, whatever the order.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/cli-process.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const HOST = 'tui.example.test';
const FOLLOW_HOST = 'follow.example.test';
const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
// Locally a missing tmux skips with this reason; in CI (CI=true) the test runs and fails instead.
const runTui = hasTmux || process.env.CI === 'true';
const TMUX_SOCKET = `wafctl-e2e-${process.pid}`;
const SESSION = 'logs';

let d: E2eDaemon;
let token: string;

async function json<T>(...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function wafEvent(uri: string, ruleId: string, ip: string, at = Date.now(), host = HOST) {
  return {
    timestamp_ms: at,
    host,
    client_ip: ip,
    uri,
    method: 'GET',
    waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-930-APPLICATION-ATTACK-LFI.conf',
    rule_id: ruleId,
    severity: 'CRITICAL',
    msg: 'Path Traversal Attack (/../)',
  };
}

let batch = 0;
async function ingest(...events: object[]): Promise<void> {
  const file = join(d.box.home, `waf-${++batch}.ndjson`);
  await writeFile(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const run = await d.wafctl('ingest', 'waf', file, '--token', token);
  if (run.code !== 0) throw new Error(`ingest exited ${run.code}: ${run.stderr}`);
}

function tmux(...args: string[]): string {
  const result = spawnSync('tmux', ['-L', TMUX_SOCKET, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

const pane = () => tmux('capture-pane', '-p', '-t', SESSION);

async function waitForPane(check: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const screen = pane();
    if (check(screen)) return screen;
    if (Date.now() > until) throw new Error(`pane never showed ${what}; last screen:\n${screen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The argv for a tmux pane running wafctl that records wafctl's exit code in `statusFile` once it
 * has ended (tmux's own #{pane_dead_status} can lag: it is set only when tmux reaps the child).
 */
function paneCommand(env: Record<string, string>, args: string[], statusFile: string): string[] {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return ['sh', '-c', `"$@"; echo $? > '${statusFile}'`, 'sh', 'env', '-i', ...vars, process.execPath, BIN, ...args];
}

/** wafctl's exit code from its status file, once written. */
async function exitStatusOf(session: string, statusFile: string, what: string): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    if (existsSync(statusFile)) {
      const status = readFileSync(statusFile, 'utf8').trim();
      if (status !== '') return status;
    }
    if (Date.now() > until) throw new Error(`${what} did not exit; screen:\n${tmux('capture-pane', '-p', '-t', session)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const keys = async (...names: string[]) => {
  tmux('send-keys', '-t', SESSION, ...names);
  await new Promise((r) => setTimeout(r, 150));
};

beforeAll(async () => {
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  await json('site', 'add', HOST, '--origin', 'http://127.0.0.1:9');
  token = (await json<{ token: string }>('token', 'create', 'e2e-tui')).token;
  const now = Date.now();
  await ingest(
    wafEvent('/wp-admin/../etc/passwd', '930100', '198.51.100.77', now - 3000),
    wafEvent('/?id=1%20union%20select', '942100', '203.0.113.9', now - 2000),
    wafEvent('/xmlrpc.php', '200104', '192.0.2.44', now - 1000),
  );
}, 180_000);

afterAll(async () => {
  if (hasTmux) {
    // kill-server leaves the socket file behind: remove it too.
    const socket = spawnSync('tmux', ['-L', TMUX_SOCKET, 'display-message', '-p', '#{socket_path}'], { encoding: 'utf8' }).stdout.trim();
    spawnSync('tmux', ['-L', TMUX_SOCKET, 'kill-server']);
    if (socket.includes(TMUX_SOCKET)) rmSync(socket, { force: true });
  }
  await stopAll();
}, 60_000);

describe.runIf(runTui)('wafctl logs --tui in tmux against a real daemon', () => {
  it('shows, follows, searches, opens details, blacklists and unblacklists with confirmation and quits cleanly', async () => {
    expect(hasTmux, 'tmux is required (apt-get install -y tmux)').toBe(true);
    const statusFile = join(d.box.home, 'logs-tui.status');
    tmux('new-session', '-d', '-s', SESSION, '-x', '120', '-y', '30', ...paneCommand({ ...d.box.env, TERM: 'xterm-256color', NO_COLOR: '1' }, ['--site', HOST, 'logs', '--tui'], statusFile));
    tmux('set-option', '-t', SESSION, 'remain-on-exit', 'on');

    let screen = await waitForPane((s) => s.includes('3 total'), 'three events');
    const lines = screen.split('\n');
    const row = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(row('/xmlrpc.php')).toBeLessThan(row('union%20select'));
    expect(row('union%20select')).toBeLessThan(row('/wp-admin/../etc/passwd'));
    expect(lines[row('/xmlrpc.php')]).toMatch(/^› /);
    expect(screen).toContain('crs 2 · cms 1');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(120);

    // A new event shows up without a key: the view polls every 2 s.
    await ingest(wafEvent('/new/arrival', '932100', '198.51.100.78'));
    screen = await waitForPane((s) => s.includes('/new/arrival') && s.includes('4 total'), 'the new event', 10_000);

    // The new event went on top; the cursor stayed on the event it was on.
    await waitForPane((s) => s.split('\n').find((l) => l.startsWith('› '))?.includes('/xmlrpc.php') === true, 'the cursor on the same event', 3000);
    await keys('j');
    await keys('k');
    await keys('Enter');
    // The detail pane is `wafctl logs show` for the event (GET /waf-logs/{id}); an ingested event
    // is a request of its own, with no action stored.
    screen = await waitForPane((s) => s.includes('rule 200104 [cms]'), 'the detail pane');
    expect(screen).toMatch(/client +192\.0\.2\.44/);
    expect(screen).toMatch(/request +GET \/xmlrpc\.php/);
    expect(screen).toMatch(/action +unknown/);
    expect(screen).toContain('1 rule matched:');
    // Enter closes the pane (Esc does too, but a lone ESC followed at once by another key can be
    // read as Alt+key by any terminal program, so the test does not race it).
    await keys('Enter');
    await waitForPane((s) => !s.includes('rule 200104 [cms]') && s.includes('/xmlrpc.php'), 'the table again');

    // Search with the API's semantics: an exact rule id.
    await keys('/');
    await waitForPane((s) => s.includes('search: '), 'the search prompt');
    tmux('send-keys', '-t', SESSION, '-l', '930100');
    await waitForPane((s) => s.includes('search: 930100'), 'the typed search');
    await keys('Enter');
    screen = await waitForPane((s) => s.includes('search "930100"') && s.includes('1 total'), 'the search result');
    expect(screen).toContain('/wp-admin/../etc/passwd');
    expect(screen).not.toContain('/xmlrpc.php');

    // Blacklist the selected IP: nothing happens on n, the API is called on y.
    await keys('b');
    await waitForPane((s) => s.includes('Blacklist 198.51.100.77? y/n'), 'the confirmation');
    await keys('y');
    await waitForPane((s) => /198\.51\.100\.77.*blacklist/i.test(s.split('\n').filter((l) => !l.startsWith('›')).join('\n')), 'the API answer');
    const rules = await json<{ blacklist: Array<{ ip: string; description: string }> }>('--site', HOST, 'ip-rules', 'list');
    expect(rules.blacklist).toEqual([expect.objectContaining({ ip: '198.51.100.77', description: 'wafctl logs: rule 930100 (crs)' })]);

    // B takes it off the blacklist again, through DELETE /ip-rules, after y.
    await keys('B');
    await waitForPane((s) => s.includes('Remove 198.51.100.77 from the blacklist? y/n'), 'the removal question');
    await keys('y');
    await waitForPane((s) => s.includes('198.51.100.77 removed from the blacklist'), 'the removal answer');
    expect((await json<{ blacklist: unknown[] }>('--site', HOST, 'ip-rules', 'list')).blacklist).toEqual([]);

    await keys('?');
    await waitForPane((s) => s.includes('blacklist the selected IP (asks y/n)'), 'the help');
    await keys('q');
    expect(await exitStatusOf(SESSION, statusFile, 'wafctl logs on q')).toBe('0');
    // The alternate screen was left: the view is gone from the pane.
    expect(pane()).not.toContain('WAF events ·');
  }, 90_000);
});

describe.runIf(runTui)('wafctl analytics --tui in tmux against a real daemon', () => {
  it('shows totals and charts, switches period with 2, redraws on resize, shows the top IPs on t and quits cleanly', async () => {
    expect(hasTmux, 'tmux is required (apt-get install -y tmux)').toBe(true);
    const now = Math.floor(Date.now() / 1000);
    const file = join(d.box.home, 'access.ndjson');
    const entries = Array.from({ length: 20 }, (_, i) => ({ timestamp: now - i * 60, host: HOST, client_ip: `10.9.0.${i % 5}`, uri: `/a/${i}`, method: 'GET', status: i < 2 ? 403 : 200, bytes_sent: 10 }));
    await writeFile(file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const sent = await d.wafctl('ingest', 'access', file, '--token', token);
    expect(sent.code, sent.stderr).toBe(0);

    const statusFile = join(d.box.home, 'analytics-tui.status');
    tmux('new-session', '-d', '-s', 'analytics', '-x', '120', '-y', '30', ...paneCommand({ ...d.box.env, TERM: 'xterm-256color' }, ['--site', HOST, 'analytics', '--tui'], statusFile));
    tmux('set-option', '-t', 'analytics', 'remain-on-exit', 'on');
    const screen = () => tmux('capture-pane', '-p', '-t', 'analytics');
    const waitFor = async (check: (s: string) => boolean, what: string) => {
      const until = Date.now() + 15_000;
      while (!check(screen())) {
        if (Date.now() > until) throw new Error(`analytics pane never showed ${what}:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return screen();
    };
    let text = await waitFor((s) => s.includes('requests 20 ·'), 'the totals');
    expect(text).toContain('unique visitors 5');
    expect(text).toContain('blocked 2 (10.0%)');
    expect(text).toContain('24 hours');
    expect(text).toMatch(/[▁▂▃▄▅▆▇█]/);
    tmux('send-keys', '-t', 'analytics', '2');
    text = await waitFor((s) => s.includes('Analytics · 7d') && s.includes('168 hours'), 'the 7d period');
    tmux('resize-window', '-t', 'analytics', '-x', '70', '-y', '24');
    text = await waitFor((s) => s.split('\n').every((l) => [...l].length <= 70) && s.includes('168 hours'), 'a redraw at 70 columns');
    // t: the top IPs panel, from the daemon's GET /analytics?top=ips (5 addresses, 4 requests each).
    tmux('send-keys', '-t', 'analytics', 't');
    text = await waitFor((s) => s.includes('top 5 of 5 client IPs'), 'the top IPs panel');
    expect(text).toMatch(/10\.9\.0\.0\s+4\s+20%\s+█+\s+1/);
    expect(text).not.toContain('168 hours');
    tmux('send-keys', '-t', 'analytics', 'q');
    expect(await exitStatusOf('analytics', statusFile, 'wafctl analytics on q')).toBe('0');
    expect(screen()).not.toContain('Analytics ·');
  }, 90_000);
});

describe('wafctl logs --follow on a pipe', () => {
  it('streams events stored after it started as NDJSON, oldest first, each once', async () => {
    await json('site', 'add', FOLLOW_HOST, '--origin', 'http://127.0.0.1:9');
    const event = (uri: string, ip: string, at?: number) => wafEvent(uri, '930100', ip, at, FOLLOW_HOST);
    const child = spawn(process.execPath, [BIN, '--site', FOLLOW_HOST, 'logs', '--follow'], { env: d.box.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const lines = () => out.split('\n').filter(Boolean);
    const waitForLines = async (done: () => boolean, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    };
    try {
      // Its first poll marks where "new" starts and prints nothing: a marker event per poll interval
      // until one is streamed shows it is past that poll (the markers stored before it never are).
      const markers: string[] = [];
      while (lines().length === 0) {
        if (markers.length === 20) throw new Error(`logs --follow streamed none of ${markers.length} markers; stderr: ${err}`);
        markers.push(`/follow/ready/${markers.length}`);
        await ingest(event(markers.at(-1)!, '198.51.100.89'));
        await waitForLines(() => lines().length > 0, 3000);
      }
      const firstShown = markers.indexOf((JSON.parse(lines()[0]) as { uri: string }).uri);
      expect(firstShown, `the first line is a marker: ${lines()[0]}`).toBeGreaterThanOrEqual(0);
      await ingest(event('/follow/one', '198.51.100.90', Date.now() - 10), event('/follow/two', '198.51.100.91'));
      await waitForLines(() => out.includes('/follow/two'), 15_000);
      await new Promise((r) => setTimeout(r, 2500)); // one more poll: nothing may repeat
      const events = lines().map((l) => JSON.parse(l) as { id: number; uri: string; client_ip: string });
      expect(events.map((e) => e.uri), err).toEqual([...markers.slice(firstShown), '/follow/one', '/follow/two']);
      expect(events.at(-2)!.id).toBeLessThan(events.at(-1)!.id);
      // The --json shape of a row, with the action wafctl asks for (an ingested event's is unknown).
      expect(Object.keys(events.at(-2)!).sort()).toEqual(['action', 'client_ip', 'event_timestamp', 'group', 'host', 'id', 'uri', 'waf_rule_id']);
      expect((events.at(-2) as { action?: string }).action).toBe('unknown');
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((r) => child.once('close', (c, signal) => r(c ?? (signal ? 130 : null))));
    expect(code).not.toBe(0); // it never ends by itself
  }, 120_000);
});
