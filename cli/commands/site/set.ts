// wafctl site set DOMAIN [--origin URL] [--plan PLAN] [--alias D]... [--clear-aliases]
//   [--mode on|detect|off] [--paranoia 1-4] [--detection-paranoia 1-4|same] [--inbound-threshold N] [--outbound-threshold N]
//   [--group crs|cms=on|off]... [--block-response 403|404|drop] [--default|--no-default]
//   [--tls-cert F --tls-key F | --generated-tls | --tls acme [--acme-email E] [--acme-directory URL]] [--on-engine-error closed|open] [--body-over-limit reject|pass]
//   [--response-inspection on|off] [--block-user-enumeration on|off]
import { InvalidArgumentError, Option, type Command } from 'commander';
import { PLAN_TIERS } from '../../../shared/plans.js';
import type { SiteChanges } from '../../admin-api.js';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { collect, parsePositiveInt } from '../../options.js';
import { readLocalText } from '../rules/local-file.js';
import { siteFields } from './site-view.js';

const MAX_PEM_BYTES = 256 * 1024;

export interface SetOptions {
  origin?: string;
  plan?: string;
  alias: string[];
  clearAliases?: boolean;
  mode?: 'on' | 'detect' | 'off';
  paranoia?: number;
  /** 'same': follow --paranoia again. */
  detectionParanoia?: number | 'same';
  inboundThreshold?: number;
  outboundThreshold?: number;
  group: Array<{ name: 'cms' | 'crs'; on: boolean }>;
  blockResponse?: '403' | '404' | 'drop';
  default?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  generatedTls?: boolean;
  /** 'acme': certificates over ACME (HTTP-01 on the edge's port 80). */
  tls?: 'acme';
  acmeEmail?: string;
  acmeDirectory?: string;
  onEngineError?: 'closed' | 'open';
  bodyOverLimit?: 'reject' | 'pass';
  responseInspection?: 'on' | 'off';
  blockUserEnumeration?: 'on' | 'off';
}

function parseParanoia(value: string): number {
  if (!/^[1-4]$/.test(value)) throw new InvalidArgumentError('must be 1, 2, 3 or 4.');
  return Number(value);
}

function parseDetectionParanoia(value: string): number | 'same' {
  if (value === 'same') return value;
  if (!/^[1-4]$/.test(value)) throw new InvalidArgumentError('must be 1, 2, 3, 4 or same.');
  return Number(value);
}

function parseGroup(value: string, previous: SetOptions['group'] = []): SetOptions['group'] {
  const m = /^(cms|crs)=(on|off)$/.exec(value);
  if (!m) throw new InvalidArgumentError('must be crs=on|off or cms=on|off.');
  return [...previous, { name: m[1] as 'cms' | 'crs', on: m[2] === 'on' }];
}

/** The change a `site set` command line asks for (TLS files aside); a usage error when it asks for nothing or contradicts itself. */
export function siteChanges(options: SetOptions): SiteChanges {
  if (options.clearAliases && options.alias.length > 0) throw usageError('--alias and --clear-aliases contradict each other');
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) throw usageError('--tls-cert and --tls-key go together');
  if (options.generatedTls && options.tlsCert !== undefined) throw usageError('--generated-tls and --tls-cert contradict each other');
  const changes: SiteChanges = {};
  const acme = acmeChange(options);
  if (acme) changes.acme = acme;
  if (options.origin !== undefined) changes.origin = options.origin;
  if (options.plan !== undefined) changes.plan = options.plan;
  if (options.alias.length > 0) changes.aliases = options.alias;
  if (options.clearAliases) changes.aliases = [];
  if (options.mode !== undefined) changes.mode = options.mode;
  if (options.paranoia !== undefined) changes.paranoia = options.paranoia;
  if (options.detectionParanoia !== undefined) changes.detection_paranoia = options.detectionParanoia === 'same' ? null : options.detectionParanoia;
  if (options.inboundThreshold !== undefined) changes.inbound_threshold = options.inboundThreshold;
  if (options.outboundThreshold !== undefined) changes.outbound_threshold = options.outboundThreshold;
  for (const { name, on } of options.group) {
    const seen = changes.groups?.[name];
    if (seen !== undefined && seen !== on) throw usageError(`--group ${name}=on and ${name}=off contradict each other`);
    changes.groups = { ...changes.groups, [name]: on };
  }
  if (options.blockResponse !== undefined) changes.block_response = options.blockResponse;
  if (options.default !== undefined) changes.is_default = options.default;
  if (options.generatedTls) changes.tls = null;
  if (options.onEngineError !== undefined) changes.on_engine_error = options.onEngineError;
  if (options.bodyOverLimit !== undefined) changes.body_over_limit = options.bodyOverLimit;
  if (options.responseInspection !== undefined) changes.response_inspection = options.responseInspection;
  if (options.blockUserEnumeration !== undefined) changes.block_user_enumeration = options.blockUserEnumeration === 'on';
  if (Object.keys(changes).length === 0 && options.tlsCert === undefined) {
    throw usageError('nothing to change', 'give at least one option: see `wafctl site set --help`');
  }
  return changes;
}

function acmeChange(options: SetOptions): SiteChanges['acme'] {
  if (options.tls !== 'acme') {
    if (options.acmeEmail !== undefined || options.acmeDirectory !== undefined) throw usageError('--acme-email and --acme-directory go with --tls acme');
    return undefined;
  }
  if (options.tlsCert !== undefined) throw usageError('--tls acme and --tls-cert contradict each other');
  if (options.generatedTls) throw usageError('--tls acme and --generated-tls contradict each other');
  return {
    ...(options.acmeDirectory !== undefined ? { directory: options.acmeDirectory } : {}),
    ...(options.acmeEmail !== undefined ? { email: options.acmeEmail } : {}),
  };
}

async function withTls(ctx: CommandContext, options: SetOptions, changes: SiteChanges): Promise<SiteChanges> {
  if (options.tlsCert === undefined || options.tlsKey === undefined) return changes;
  const cert = await readLocalText(ctx, '--tls-cert', options.tlsCert, MAX_PEM_BYTES);
  const key = await readLocalText(ctx, '--tls-key', options.tlsKey, MAX_PEM_BYTES);
  return { ...changes, tls: { cert: cert.text, key: key.text } };
}

export function registerSiteSet(site: Command, deps: CommandDeps): void {
  site
    .command('set')
    .description("change a site's origin, plan, aliases, WAF settings, block response, default-site flag or certificate")
    .argument('<domain>', 'the site domain')
    .option('--origin <url>', 'new origin: http(s)://host[:port]')
    .addOption(new Option('--plan <plan>', 'new plan tier').choices(PLAN_TIERS))
    .option('--alias <domain>', 'replace the aliases with these (repeatable)', collect, [])
    .option('--clear-aliases', 'remove every alias')
    .addOption(new Option('--mode <mode>', 'WAF mode: on blocks, detect only logs, off skips the rule groups').choices(['on', 'detect', 'off']))
    .option('--paranoia <level>', 'CRS paranoia level 1-4 (higher: more rules, more false positives)', parseParanoia)
    .option('--detection-paranoia <level>', 'run and log rules up to this level (>= paranoia) without blocking on those above paranoia; same: follow --paranoia', parseDetectionParanoia)
    .option('--inbound-threshold <n>', 'CRS inbound anomaly score that blocks a request (default 5)', parsePositiveInt)
    .option('--outbound-threshold <n>', 'CRS outbound anomaly score threshold (default 4)', parsePositiveInt)
    .option('--group <name=state>', 'turn a rule group on or off: crs=on|off, cms=on|off (repeatable)', parseGroup, [])
    .addOption(new Option('--block-response <kind>', 'answer to a blocked request: 403 page, 404, or drop (close, no bytes)').choices(['403', '404', 'drop']))
    .option('--default', 'serve hosts no site claims with this site (instead of the 421 page)')
    .option('--no-default', 'stop serving unclaimed hosts')
    .option('--tls-cert <file>', "the site's certificate chain (PEM), with --tls-key")
    .option('--tls-key <file>', "the certificate's private key (PEM, unencrypted)")
    .option('--generated-tls', "drop the site's own certificate: the edge's generated one again")
    .addOption(new Option('--tls <source>', "acme: obtain and renew the site's certificate over ACME (HTTP-01 on the edge's HTTP port); again: renew now").choices(['acme']))
    .option('--acme-email <address>', 'contact address of the ACME account (expiry notices), with --tls acme')
    .option('--acme-directory <url>', "ACME directory URL, with --tls acme (default: Let's Encrypt)")
    .addOption(new Option('--on-engine-error <mode>', 'when the engine fails on a request: closed blocks it (500), open lets it through').choices(['closed', 'open']))
    .addOption(new Option('--body-over-limit <policy>', 'a body over the inspection limit: reject (413) or pass uninspected (logged)').choices(['reject', 'pass']))
    .addOption(new Option('--response-inspection <state>', 'response headers and bodies through the WAF (leaks, web shells): on (default) or off (stream untouched)').choices(['on', 'off']))
    .addOption(new Option('--block-user-enumeration <state>', 'with the cms group on: refuse WordPress user enumeration (/?author=N, /wp-json/wp/v2/users without a login): on (default) or off').choices(['on', 'off']))
    .addHelpText('after', '\nExamples:\n  wafctl site set example.com --plan enterprise\n  wafctl site set example.com --alias www.example.com --alias shop.example.com\n  wafctl site set example.com --mode detect --paranoia 2 --inbound-threshold 10\n  wafctl site set example.com --paranoia 1 --detection-paranoia 3\n  wafctl site set example.com --group cms=off --block-response drop\n  wafctl site set example.com --tls-cert site.crt --tls-key site.key\n  wafctl site set example.com --tls acme --acme-email ops@example.com\n')
    .action(
      withContext(deps, async (ctx, domain: string, options: SetOptions) => {
        const changes = await withTls(ctx, options, siteChanges(options));
        const updated = await ctx.admin().updateSite(domain, changes);
        ctx.out.info(`site ${updated.domain} updated`);
        ctx.out.fields(siteFields(updated), updated);
      }),
    );
}
