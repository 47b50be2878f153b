import type { Logger } from 'pino';
import type { StoredAcme } from '../../../shared/schemas/acme.js';
import type { Config } from '../../../shared/schemas/config.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import type { ConfigStore } from '../../store/config/config-store.js';
import { acmeOrderDue, RENEW_BEFORE_MS, type AcmeTrigger } from './acme-due.js';
import { acmeAccountKey } from './account-key.js';
import { issueCertificate, type OrderRequest, type IssuedCertificate } from './issue-certificate.js';

// Runs the ACME orders of every site with `--tls acme`: one at a time per site, started by a config
// change (a new `site set --tls acme`) or by the renewal timer (30 days or less left, or a failed
// order to retry). Every step is a config-store update, so the edge learns of challenges and of a
// new certificate the way it learns of any setting: a new snapshot, a new secure context, no restart.
// A failed order records its reason and leaves the site's certificate as it was.

export const CHECK_EVERY_MS = 12 * 60 * 60 * 1000;

export interface AcmeManagerOptions {
  store: ConfigStore;
  logger: Logger;
  accountKeyFile: string;
  now: () => Date;
  renewBeforeMs?: number;
  checkEveryMs?: number;
  /** The order itself (issue-certificate.ts); replaceable only to prove the bookkeeping around it. */
  issue?: (request: OrderRequest) => Promise<IssuedCertificate>;
}

export class AcmeManager {
  private readonly running = new Map<number, Promise<void>>();
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: AcmeManagerOptions) {}

  start(): void {
    this.unsubscribe = this.options.store.onChange(() => this.scan('change'));
    this.timer = setInterval(() => this.scan('timer'), this.options.checkEveryMs ?? CHECK_EVERY_MS);
    this.timer.unref();
    // A start is a timer tick: orders left pending by a stop, and renewals that fell due while down.
    this.scan('timer');
  }

  /**
   * Stops starting orders and recording results. An order under way is not waited for (a slow CA
   * must not hold up a stop): its site stays 'pending' and is ordered again on the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
  }

  /** Starts the orders that are due; returns once they are all settled (for callers that wait). */
  scan(trigger: AcmeTrigger): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const now = this.options.now();
    for (const site of this.options.store.snapshot().sites) {
      if (site.status === 'deleted' || !site.acme || this.running.has(site.id)) continue;
      if (!acmeOrderDue(site.acme, trigger, now, this.options.renewBeforeMs ?? RENEW_BEFORE_MS)) continue;
      const order = this.order(site, site.acme).finally(() => this.running.delete(site.id));
      this.running.set(site.id, order);
    }
    return Promise.allSettled([...this.running.values()]).then(() => undefined);
  }

  private async order(site: StoredSite, acme: StoredAcme): Promise<void> {
    const { logger } = this.options;
    const hosts = [site.domain, ...site.aliases];
    logger.info({ site: site.domain, directory: acme.directory }, 'acme: ordering a certificate');
    try {
      const issued = await (this.options.issue ?? issueCertificate)({
        directory: acme.directory,
        email: acme.email,
        hosts,
        accountKey: await acmeAccountKey(this.options.accountKeyFile),
        publish: (token, keyAuthorization) => this.change(site.id, (s) => {
          s.challenges = [...s.challenges.filter((c) => c.token !== token), { token, key_authorization: keyAuthorization }];
        }),
        withdraw: (token) => this.change(site.id, (s) => { s.challenges = s.challenges.filter((c) => c.token !== token); }),
      });
      await this.change(site.id, (s, draft) => {
        draft.tls = { cert: issued.cert, key: issued.key };
        Object.assign(s, { state: 'valid', not_after: issued.notAfter.toISOString(), serial: issued.serial, error: null, challenges: [] });
        s.changed_at = this.options.now().toISOString();
      });
      logger.info({ site: site.domain, not_after: issued.notAfter.toISOString(), serial: issued.serial }, 'acme: certificate issued');
    } catch (error) {
      const reason = `ACME order at ${acme.directory} failed: ${(error as Error).message}`;
      logger.error({ site: site.domain, err: error }, 'acme: order failed; the site keeps its certificate');
      await this.change(site.id, (s) => {
        Object.assign(s, { state: 'failed', error: reason.slice(0, 1000), challenges: [] });
        s.changed_at = this.options.now().toISOString();
      }).catch((err: unknown) => logger.error({ err }, 'acme: could not record the failure'));
    }
  }

  /** One update of the site's ACME record, skipped when the site has left ACME (or was deleted) meanwhile. */
  private async change(siteId: number, mutate: (acme: StoredAcme, site: StoredSite) => void): Promise<void> {
    if (this.stopped) return;
    await this.options.store.update((draft: Config) => {
      const site = draft.sites.find((s) => s.id === siteId);
      if (!site?.acme || site.status === 'deleted') return;
      mutate(site.acme, site);
    });
  }
}
