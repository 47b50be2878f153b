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

/** Three commands that reach the demo site through the edge: a page, an attack, a login attempt. */
export function demoInfo(originUrl: string, edgeHost: string, edgePort: number): DemoInfo {
  const base = `http://${edgeHost}:${edgePort}`;
  const host = `-H 'Host: ${DEMO_DOMAIN}'`;
  return {
    domain: DEMO_DOMAIN,
    origin: originUrl,
    try: [
      `curl -i ${host} ${base}/`,
      `curl -i ${host} '${base}/echo?id=1%27%20OR%20%271%27%3D%271'`,
      `curl -i ${host} -X POST --data 'log=admin&pwd=guess' ${base}/wp-login.php`,
    ],
  };
}
