import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import { WafctlError } from '../../../shared/errors.js';
import { SetRulesBodySchema } from '../../../shared/schemas/site-settings.js';
import type { Config } from '../../../shared/schemas/config.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import { parseWith } from '../../api/envelope.js';
import { requireSite } from '../../store/config/sites.js';
import type { ConfigSnapshot } from '../../store/config/config-store.js';
import type { AdminDependencies } from '../dependencies.js';
import { requireLiveSite } from '../protection/site-lookup.js';
import { ruleFile, rulesView, siteRuleSettings } from '../protection/rule-files.js';
import { lazyRuleGroups } from '../protection/lazy-rule-groups.js';

// A site's WAF rules on the admin socket (ROUTES.md): `wafctl rules show|set`. User files are
// validated by loading them with everything else the site runs (base settings, CRS at its paranoia
// level, cms): a file that does not load is refused with `file:line: reason` and nothing changes.
// The engine is imported on first use (protection/lazy-rule-groups.ts).

type DomainParams = { Params: { domain: string } };

export function rulesRoutes(app: FastifyInstance, deps: AdminDependencies): void {
  const { store } = deps;
  const ruleGroups = lazyRuleGroups(deps, (m) => app.log.warn(m));

  const view = async (site: StoredSite) => {
    const { dir, groups: g } = await ruleGroups();
    const { version, plugins } = deps.status().crs;
    return rulesView(site, { dir, location: g.crs, version: version ?? null, plugins: plugins ?? [] }, g.load(siteRuleSettings(site)));
  };

  app.get<DomainParams>('/admin/sites/:domain/rules', async (request) => {
    return { success: true, data: await view(requireSite(store.snapshot(), request.params.domain)) };
  });

  app.put<DomainParams>('/admin/sites/:domain/rules', async (request) => {
    const body = parseWith(SetRulesBodySchema, request.body);
    const { groups: g } = await ruleGroups();
    const now = deps.now().toISOString();
    const apply = (site: StoredSite) => {
      const { waf } = site.protection;
      if (body.before !== undefined) waf.rules_before = body.before === null ? null : ruleFile(body.before, now);
      if (body.after !== undefined) waf.rules_after = body.after === null ? null : ruleFile(body.after, now);
      site.updated_at = now;
    };
    // Validate on a copy first (a compile takes about a second; the store is not held meanwhile).
    const candidate = structuredClone(requireLiveSite(store.snapshot() as Config, request.params.domain));
    apply(candidate);
    const settings = siteRuleSettings(candidate);
    const outcome = g.load(settings);
    if (!outcome.ok) throw new WafctlError('validation_error', outcome.error);
    // Loads, but a line of the user's that changes nothing is most often a typo (rule-sets/user-rule-checks.ts).
    const { modifierWithoutEffect } = await import('../../rule-sets/user-rule-checks.js');
    const noEffect = modifierWithoutEffect(outcome.waf, settings, g.crs !== null && settings.groups.crs);
    if (noEffect !== null) throw new WafctlError('validation_error', noEffect);
    const site = await store.update((draft) => {
      const live = requireLiveSite(draft, request.params.domain);
      apply(live);
      return live;
    });
    request.log.info({ domain: site.domain, before: site.protection.waf.rules_before?.path ?? null, after: site.protection.waf.rules_after?.path ?? null }, 'user rule files set');
    return { success: true, data: await view(site) };
  });

  // A stored file can stop loading (a referenced data file removed, another CRS installed): say so in
  // the log when the daemon starts and after each reload; `rules show` says it too.
  const check = (snapshot: ConfigSnapshot, log: FastifyBaseLogger) => {
    const withFiles = snapshot.sites.filter((s) => s.status !== 'deleted' && (s.protection.waf.rules_before || s.protection.waf.rules_after));
    if (withFiles.length === 0) return;
    void ruleGroups().then(({ groups: g }) => {
      for (const site of withFiles) {
        const outcome = g.load(siteRuleSettings(site));
        if (!outcome.ok) log.error({ domain: site.domain, error: outcome.error }, `user rule files of ${site.domain} do not load; the site runs without them: ${outcome.error}`);
      }
    }, (err: unknown) => log.error({ err }, 'could not load the WAF engine to check user rule files'));
  };
  app.addHook('onReady', async () => { setImmediate(() => check(store.snapshot(), app.log)); });
  const unsubscribe = store.onChange((snapshot, reason) => { if (reason === 'reload') check(snapshot, app.log); });
  app.addHook('onClose', async () => unsubscribe());
}
