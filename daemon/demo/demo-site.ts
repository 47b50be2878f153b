import type { DemoInfo } from '../../shared/schemas/admin.js';
import type { ConfigStore } from '../store/config/config-store.js';
import { addSite, findSite, updateSite } from '../store/config/sites.js';

// The demo site: demo.localhost in front of the demo origin. Created the first time --demo is used;
// later starts keep the same site (and key) and only point it at the demo origin's current address.
// A site the operator disabled stays disabled; one they deleted is created again, since --demo asks
// for it.

export const DEMO_DOMAIN = 'demo.localhost';

export async function ensureDemoSite(store: ConfigStore, originUrl: string, now: () => Date): Promise<void> {
  const existing = findSite(store.snapshot(), DEMO_DOMAIN);
  if (existing && existing.status !== 'deleted') {
    if (existing.origin !== originUrl) await store.update((draft) => updateSite(draft, DEMO_DOMAIN, { origin: originUrl }, now().toISOString()));
    return;
  }
  await store.update((draft) => addSite(draft, { domain: DEMO_DOMAIN, origin: originUrl, aliases: [], plan: 'free' }, now().toISOString()));
}

/**
 * Commands that reach the demo site through the edge, each with what it should get as a shell
 * comment (README promises what they do: test/e2e/demo-first-steps.test.ts runs them). The
 * password guessing loop makes 21 attempts so that, however a minute boundary of the fixed
 * 60-second window falls, one window sees more than the default 10 login attempts a minute.
 */
export function demoInfo(originUrl: string, edgeHost: string, edgePort: number): DemoInfo {
  const base = `http://${edgeHost}:${edgePort}`;
  const host = `-H 'Host: ${DEMO_DOMAIN}'`;
  return {
    domain: DEMO_DOMAIN,
    origin: originUrl,
    try: [
      `curl -i ${host} ${base}/   # a normal page: 200`,
      `curl -i ${host} '${base}/echo?id=1%27%20OR%20%271%27%3D%271'   # SQL injection: 403 (a Core Rule Set rule)`,
      `curl -i ${host} ${base}/wp-config.php.bak   # a probe for a config backup: 403 (a WordPress rule)`,
      `for i in $(seq 21); do curl -s -o /dev/null -w '%{http_code} ' ${host} -X POST --data 'log=admin&pwd=guess' ${base}/wp-login.php; done; echo   # password guessing: 200 up to 10 a minute, then 429`,
    ],
  };
}
