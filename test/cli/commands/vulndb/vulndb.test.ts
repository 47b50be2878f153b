// wafctl vulndb import|status|refresh through the real commander tree, with the in-memory daemon
// of test/cli/fakes.ts. The real admin socket is exercised by test/e2e/vulndb.test.ts.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../cli/run.js';
import { VulnDbImportResultSchema, VulnDbStatusSchema } from '../../../../shared/schemas/vulndb.js';
import { CodedError, harness } from '../../fakes.js';

const FEED = '{"rec-1": {"id": "rec-1"}, "rec-2": {"id": "rec-2"}}';

describe('vulndb import', () => {
  it('streams a local file with its absolute path as the label and prints the new status', async () => {
    const h = harness();
    h.files.inputs.set('feed.json', FEED);
    expect(await runCli(['vulndb', 'import', 'feed.json'], h.deps)).toBe(0);
    expect(h.admin.vulndbImports).toHaveLength(1);
    const sent = h.admin.vulndbImports[0];
    expect(sent).toMatchObject({ kind: 'upload', text: FEED });
    expect(sent.kind === 'upload' && sent.label).toBe(`${process.cwd()}/feed.json`);
    expect(h.io.out()).toMatch(/^loaded\s+yes$/m);
    expect(h.io.out()).toMatch(/^records\s+2$/m);
    expect(h.io.out()).toMatch(/^skipped\s+0$/m);
    expect(h.io.out()).toMatch(/^variant\s+unknown production$/m);
    expect(h.io.out()).toMatch(/^sha256\s+[0-9a-f]{64}$/m);
    expect(h.io.err()).toBe('imported 2 records\n');
  });

  it('--json prints the import result exactly', async () => {
    const h = harness();
    h.files.inputs.set('-', FEED);
    expect(await runCli(['--json', 'vulndb', 'import', '-'], h.deps)).toBe(0);
    const printed = VulnDbImportResultSchema.parse(JSON.parse(h.io.out()));
    expect(printed.status).toEqual(h.admin.vulndb);
    expect(h.admin.vulndbImports[0]).toMatchObject({ kind: 'upload', label: 'stdin' });
  });

  it('hands an http(s) URL to the daemon with the API key', async () => {
    const h = harness();
    const url = 'https://www.wordfence.com/api/intelligence/v3/vulnerabilities/production';
    expect(await runCli(['vulndb', 'import', url, '--api-key', 'k123'], h.deps)).toBe(0);
    expect(h.admin.vulndbImports).toEqual([{ kind: 'url', url, apiKey: 'k123' }]);
  });

  it('lists the first skipped records on stderr, all of the sample with -v', async () => {
    const h = harness();
    h.files.inputs.set('feed.json', FEED);
    const sample = Array.from({ length: 8 }, (_, i) => ({ key: `bad-${i}`, reason: 'software: must be a list' }));
    const original = h.admin.vulndbImportUpload.bind(h.admin);
    h.admin.vulndbImportUpload = async (chunks, label) => {
      const result = await original(chunks, label);
      if (result.status.loaded) result.status.skipped = 8;
      return { ...result, skipped_sample: sample };
    };
    expect(await runCli(['vulndb', 'import', 'feed.json'], h.deps)).toBe(0);
    expect(h.io.err()).toContain('imported 2 records, 8 skipped\n  skipped bad-0: software: must be a list\n');
    expect(h.io.err()).not.toContain('bad-5');
    expect(h.io.err()).toContain('... 3 more skipped (-v shows up to 20)');

    const v = harness();
    v.files.inputs.set('feed.json', FEED);
    v.admin.vulndbImportUpload = h.admin.vulndbImportUpload;
    expect(await runCli(['-v', 'vulndb', 'import', 'feed.json'], v.deps)).toBe(0);
    expect(v.io.err()).toContain('  skipped bad-7: software: must be a list\n');
    expect(v.io.err()).not.toContain('more skipped');
  });

  it('a missing file is our error: the daemon is never called', async () => {
    const h = harness();
    expect(await runCli(['vulndb', 'import', 'nowhere.json'], h.deps)).toBe(1);
    expect(h.io.err()).toBe('error: file_not_found: no such file: nowhere.json\n');
    expect(h.admin.vulndbImports).toEqual([]);
    expect(h.admin.vulndb).toEqual({ loaded: false });
  });

  it("the daemon's refusal keeps its code and message, exit 1, and changes nothing", async () => {
    const h = harness();
    h.files.inputs.set('cut.json', '{"rec-1": {"id": ');
    h.admin.vulndbImportFailure = new CodedError('truncated', 'the feed ends at byte 17 before its top-level object closes');
    expect(await runCli(['vulndb', 'import', 'cut.json'], h.deps)).toBe(1);
    expect(h.io.err()).toBe('error: truncated: the feed ends at byte 17 before its top-level object closes\n');
    expect(h.io.out()).toBe('');
    expect(h.admin.vulndb).toEqual({ loaded: false });
  });

  it('usage errors: --api-key with a file, a URL scheme other than http(s), no source', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['vulndb', 'import', 'feed.json', '--api-key', 'k'], /--api-key goes with a feed URL/],
      [['vulndb', 'import', 'ftp://example.test/feed.json'], /only http\(s\) URLs/],
      [['vulndb', 'import'], /missing required argument 'source'/],
    ];
    for (const [argv, message] of cases) {
      const h = harness();
      h.files.inputs.set('feed.json', FEED);
      expect(await runCli(argv, h.deps), argv.join(' ')).toBe(2);
      expect(h.io.err(), argv.join(' ')).toMatch(message);
      expect(h.admin.vulndbImports).toEqual([]);
    }
  });

  it('no daemon: exit 4 with the hint to start it', async () => {
    const h = harness();
    h.admin.running = false;
    h.files.inputs.set('feed.json', FEED);
    expect(await runCli(['vulndb', 'import', 'feed.json'], h.deps)).toBe(4);
    expect(h.io.err()).toMatch(/^error: daemon_unreachable: .*\nhint: is it running\?/);
  });

  it('shows upload progress on a terminal only, and clears it', async () => {
    const h = harness({}, { isTTY: true });
    h.files.inputs.set('feed.json', FEED);
    expect(await runCli(['vulndb', 'import', 'feed.json'], h.deps)).toBe(0);
    expect(h.io.err()).toContain(`${FEED.length} B sent; the daemon is building the index`);
    expect(h.io.err()).toContain('\r\x1b[2Kimported 2 records');
  });
});

describe('vulndb status', () => {
  it('nothing loaded: says so and how to import; --json prints {"loaded": false}', async () => {
    const h = harness();
    expect(await runCli(['vulndb', 'status'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/^loaded\s+no$/m);
    expect(h.io.err()).toContain('wafctl vulndb import FILE|URL');
    const j = harness();
    expect(await runCli(['vulndb', 'status', '--json'], j.deps)).toBe(0);
    expect(JSON.parse(j.io.out())).toEqual({ loaded: false });
  });

  it('after an import: --json prints the status exactly, humans get the fields', async () => {
    const h = harness();
    h.files.inputs.set('feed.json', FEED);
    await runCli(['vulndb', 'import', 'feed.json'], h.deps);
    const j = harness();
    j.admin.vulndb = h.admin.vulndb;
    expect(await runCli(['--json', 'vulndb', 'status'], j.deps)).toBe(0);
    expect(VulnDbStatusSchema.parse(JSON.parse(j.io.out()))).toEqual(h.admin.vulndb);
    const human = harness();
    human.admin.vulndb = h.admin.vulndb;
    expect(await runCli(['vulndb', 'status'], human.deps)).toBe(0);
    expect(human.io.out()).toMatch(/^source kind\s+stream$/m);
    expect(human.io.out()).toMatch(/^size\s+\d+ B$/m);
  });
});

describe('vulndb refresh', () => {
  const refresh = {
    url: 'http://127.0.0.1:9/feed.json',
    interval_s: 3600,
    last_attempt_at: '2026-11-22T06:00:00.000Z',
    last_success_at: '2026-11-22T06:00:00.000Z',
    last_error: null,
    last_result: 'not_modified' as const,
    next_at: '2026-11-22T07:00:00.000Z',
  };

  it('no refresh URL configured: refresh_not_configured, exit 1, with the import hint', async () => {
    const h = harness();
    expect(await runCli(['vulndb', 'refresh'], h.deps)).toBe(1);
    expect(h.io.err()).toMatch(/^error: refresh_not_configured: no refresh URL is configured.*\nhint: import from a URL instead/);
  });

  it('an unchanged feed: status with the refresh fields, exit 0', async () => {
    const h = harness();
    h.admin.vulndbRefreshSetting = refresh;
    expect(await runCli(['vulndb', 'refresh'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/^refresh\s+http:\/\/127\.0\.0\.1:9\/feed\.json every 1 h$/m);
    expect(h.io.out()).toMatch(/^last refresh\s+2026-11-22T06:00:00\.000Z \(not_modified\)$/m);
    expect(h.io.err()).toBe('the feed has not changed since the last import\n');
  });

  it('a failed refresh: the reason, exit 1 (the database was kept)', async () => {
    const h = harness();
    h.admin.vulndbRefreshSetting = { ...refresh, last_result: 'failed', last_error: 'fetch_failed: HTTP 503' };
    expect(await runCli(['vulndb', 'refresh'], h.deps)).toBe(1);
    expect(h.io.err()).toBe('error: refresh_failed: fetch_failed: HTTP 503; the database was kept\n');
  });
});
