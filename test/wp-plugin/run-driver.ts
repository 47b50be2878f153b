// Runs test/wp-plugin/driver.php as a real PHP process: the steps go in on stdin, one JSON line per
// step comes back. Each run is one WordPress request after another on the same options file, so a
// later run sees what an earlier one stored (the encrypted key, cached answers), as a site would.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const PLUGIN_DIR = process.env.WAFCTL_WP_PLUGIN_DIR ?? '';
const DRIVER = join(import.meta.dirname, 'driver.php');

/** Why the plugin run cannot happen here, or null when it can. */
export function whyNotRunnable(): string | null {
  if (!PLUGIN_DIR) {
    return 'WAFCTL_WP_PLUGIN_DIR is not set: the plugin is third-party GPL code, not vendored, and CI has no GitHub access (scripts/fetch-wp-plugin.sh fetches it)';
  }
  const php = spawnSync('php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);']);
  if (php.error || php.status !== 0) return 'php with the curl extension (Debian: php-cli php-curl) is not installed';
  return null;
}

export type Step =
  | { name: string; form: 'connect'; key: string }
  | { name: string; ajax: string; post?: Record<string, unknown> }
  | { name: string; cron: string };

export interface StepResult {
  name: string;
  ok: boolean;
  result: any;
  log: string[];
  error: string | null;
}

export interface WordPress {
  apiUrl: string;
  caFile: string;
  /** The options file: this WordPress's database. */
  db: string;
  /** Extra environment: WAFCTL_WP_PLUGINS, WAFCTL_WP_THEMES, WAFCTL_WP_VERSION, WAFCTL_WP_HOME. */
  env?: Record<string, string>;
}

export function runDriver(wp: WordPress, steps: Step[]): Promise<StepResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('php', [DRIVER], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WAFCTL_WP_PLUGIN_DIR: PLUGIN_DIR, WAFCTL_WP_API_URL: wp.apiUrl, WAFCTL_WP_CA_FILE: wp.caFile, WAFCTL_WP_DB: wp.db, ...wp.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const lines = stdout.split('\n').filter(Boolean);
      if (code !== 0 || lines.length !== steps.length) {
        reject(new Error(`php driver.php exited ${code} with ${lines.length} of ${steps.length} answers\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve(lines.map((line) => JSON.parse(line) as StepResult));
    });
    child.stdin.end(JSON.stringify(steps));
  });
}

/** The answers by step name, each checked to have raised no PHP warning, notice or exception. */
export function byName(results: StepResult[]): Record<string, StepResult> {
  const out: Record<string, StepResult> = {};
  for (const r of results) {
    if (r.error !== null) throw new Error(`the plugin tripped in "${r.name}": ${r.error}\nlog: ${r.log.join('\n')}`);
    out[r.name] = r;
  }
  return out;
}
