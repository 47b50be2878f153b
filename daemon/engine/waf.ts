// A loaded WAF: configuration text or files compiled into a RuleSet once, then any number
// of transactions. Every configuration problem surfaces here, as a SecLangError with
// file:line, never during a request.
import { resolve } from 'node:path';
import { loadConfigFile, loadConfigText } from './seclang/loader.js';
import type { Directive } from './seclang/lexer.js';
import { crsLineOf, paranoiaSource } from './crs-paranoia.js';
import { RuleSetBuilder, type ModifierWithoutEffect } from './rules/builder.js';
import { applyDirective } from './rules/directives.js';
import type { RuleSet } from './rules/rule-set.js';
import type { EngineRegistries } from './registries.js';
import { Transaction, type TransactionHost } from './transaction.js';
import { InMemoryCollectionStore, type PersistentCollectionStore } from './collections/persistent-store.js';
import type { EngineRequest } from './request/model.js';
import type { BodyProcessor } from './body-processors/types.js';
import { enableRegexBacktrackFallback } from './regex-safety.js';
import type { MissMemoLimits } from './rules/miss-memo.js';

/** One piece of configuration: inline text, or a file (with its Includes). */
export type ConfigSource = { text: string; name?: string; baseDir?: string } | { file: string };

export interface WafOptions {
  registries: EngineRegistries;
  /** Persistent collections (IP, GLOBAL, ...); in memory by default. */
  store?: PersistentCollectionStore;
  /** Bounds of the operator-miss memo (rules/miss-memo.ts); the defaults otherwise. */
  missMemo?: MissMemoLimits;
}

export class Waf implements TransactionHost {
  readonly bodyProcessors: ReadonlyMap<string, BodyProcessor>;
  readonly store: PersistentCollectionStore;

  private constructor(
    readonly ruleSet: RuleSet,
    options: WafOptions,
    /** Removal and update directives that matched no rule (rules/builder.ts). */
    readonly modifiersWithoutEffect: readonly ModifierWithoutEffect[] = [],
  ) {
    this.bodyProcessors = options.registries.bodyProcessors;
    const timeoutMs = ruleSet.settings.collectionTimeout * 1000;
    this.store = options.store ?? new InMemoryCollectionStore(() => timeoutMs);
  }

  /** Compiles the sources, in order, into one rule set. */
  static load(sources: readonly ConfigSource[], options: WafOptions): Waf {
    enableRegexBacktrackFallback();
    const builder = new RuleSetBuilder(options.registries);
    let last = { file: '<config>', line: 0 };
    for (const source of sources) {
      const directives: Directive[] =
        'file' in source
          ? loadConfigFile(source.file)
          : loadConfigText(source.text, source.name ?? '<config>', source.baseDir ?? process.cwd());
      for (const directive of directives) {
        applyDirective(builder, directive);
        last = { file: directive.file, line: directive.line };
      }
    }
    return new Waf(builder.finish(last, options.missMemo), options, builder.withoutEffect);
  }

  newTransaction(request: EngineRequest): Transaction {
    return new Transaction(this, request);
  }
}

export interface CrsLoadOptions {
  registries: EngineRegistries;
  /** Directory holding the CRS REQUEST-*.conf / RESPONSE-*.conf files and .data files. */
  rulesDir: string;
  /** crs-setup.conf. */
  setupFile: string;
  /** Configuration before the setup (engine settings, body processor rules). */
  before?: ConfigSource[];
  /** Configuration between the setup and the rules (thresholds, exclusions), after the plugins' config files. */
  afterSetup?: ConfigSource[];
  /** Overrides the blocking paranoia level through a SecAction (id 900000) after the setup, in the variables of the rules' CRS line. */
  paranoiaLevel?: number;
  /** Overrides the detection (CRS 3: executing) paranoia level; default: the paranoia level. */
  detectionParanoiaLevel?: number;
  /** CRS plugin files, loaded where CRS's own Include lines put them: config after the setup, before/after around the rules. */
  plugins?: CrsPluginSources;
  /** Configuration after the CRS rules (RESPONSE-999 style exclusions). */
  after?: ConfigSource[];
  store?: PersistentCollectionStore;
  missMemo?: MissMemoLimits;
}

export interface CrsPluginSources {
  config: ConfigSource[];
  before: ConfigSource[];
  after: ConfigSource[];
}

/**
 * Loads the OWASP CRS in CRS 4's order: `before`, crs-setup.conf, plugins' *-config.conf,
 * `afterSetup`, the paranoia override, plugins' *-before.conf, the rule files, plugins'
 * *-after.conf, then `after`.
 */
export function loadCrs(options: CrsLoadOptions): Waf {
  const rulesDir = resolve(options.rulesDir);
  const plugins = options.plugins ?? { config: [], before: [], after: [] };
  const sources: ConfigSource[] = [
    ...(options.before ?? []), { file: options.setupFile }, ...plugins.config, ...(options.afterSetup ?? []),
  ];
  if (options.paranoiaLevel !== undefined) {
    const blocking = options.paranoiaLevel;
    sources.push(paranoiaSource(crsLineOf(rulesDir), { blocking, detection: options.detectionParanoiaLevel ?? blocking }));
  }
  sources.push(...plugins.before);
  sources.push({ text: 'Include *.conf', name: '<crs rules>', baseDir: rulesDir });
  sources.push(...plugins.after, ...(options.after ?? []));
  return Waf.load(sources, { registries: options.registries, store: options.store, missMemo: options.missMemo });
}
