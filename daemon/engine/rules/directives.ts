// The SecLang directive table: what each directive does to the rule set being built.
// Unknown directives fail the load; the directives listed in IGNORED_DIRECTIVES configure
// things this engine does not have (files on disk, debug logs, Apache internals) and are
// accepted and ignored on purpose (see ../README.md).
import type { RuleSetBuilder } from './builder.js';
import type { EngineSettings } from './rule-set.js';
import type { Directive } from '../seclang/lexer.js';
import * as modify from './modifiers.js';
import { SecLangError, type SourceLocation } from '../seclang/errors.js';

type Handler = (b: RuleSetBuilder, args: readonly string[], where: SourceLocation) => void;

export const IGNORED_DIRECTIVES: readonly string[] = [
  'SecAuditLog', 'SecAuditLog2', 'SecAuditLogDirMode', 'SecAuditLogFileMode', 'SecAuditLogFormat',
  'SecAuditLogRelevantStatus', 'SecAuditLogStorageDir', 'SecAuditLogType', 'SecDebugLog',
  'SecDebugLogLevel', 'SecTmpDir', 'SecDataDir', 'SecUploadDir', 'SecUploadKeepFiles',
  'SecUploadFileMode', 'SecUploadFileLimit', 'SecTmpSaveUploadedFiles', 'SecPcreMatchLimit',
  'SecPcreMatchLimitRecursion', 'SecRequestBodyInMemoryLimit', 'SecStatusEngine',
  'SecUnicodeMapFile', 'SecUnicodeCodePage', 'SecCookieFormat', 'SecCookieV0Separator',
  'SecServerSignature', 'SecGeoLookupDb', 'SecGsbLookupDb', 'SecHashEngine', 'SecHashKey',
  'SecHashParam', 'SecHashMethodRx', 'SecHashMethodPm', 'SecInterceptOnError',
  'SecConnEngine', 'SecConnReadStateLimit', 'SecConnWriteStateLimit', 'SecSensorId',
  'SecHttpBlKey', 'SecStreamInBodyInspection', 'SecStreamOutBodyInspection', 'SecDisableBackendCompression',
  'SecContentInjection', 'SecChrootDir', 'SecXmlExternalEntity',
  'SecCacheTransformations', 'SecRemoteRulesFailAction', 'SecGuardianLog',
];

function one(args: readonly string[], where: SourceLocation, name: string): string {
  if (args.length !== 1) throw new SecLangError(where, `${name} takes exactly one argument`);
  return args[0];
}

function onOff(value: string, where: SourceLocation, name: string): boolean {
  if (/^on$/i.test(value)) return true;
  if (/^off$/i.test(value)) return false;
  throw new SecLangError(where, `${name} expects On or Off, got "${value}"`);
}

function bytes(value: string, where: SourceLocation, name: string): number {
  if (!/^\d+$/.test(value)) throw new SecLangError(where, `${name} expects a number, got "${value}"`);
  return Number(value);
}

function setting<K extends keyof EngineSettings>(name: string, key: K, parse: (v: string, w: SourceLocation, n: string) => EngineSettings[K]): [string, Handler] {
  return [name, (b, args, where) => { b.settings[key] = parse(one(args, where, name), where, name); }];
}

function limitAction(v: string, w: SourceLocation, n: string): 'Reject' | 'ProcessPartial' {
  if (/^reject$/i.test(v)) return 'Reject';
  if (/^processpartial$/i.test(v)) return 'ProcessPartial';
  throw new SecLangError(w, `${n} expects Reject or ProcessPartial, got "${v}"`);
}

function engineMode(v: string, w: SourceLocation, n: string): EngineSettings['ruleEngine'] {
  const modes: Record<string, EngineSettings['ruleEngine']> = { on: 'On', off: 'Off', detectiononly: 'DetectionOnly' };
  const mode = modes[v.toLowerCase()];
  if (mode === undefined) throw new SecLangError(w, `${n} expects On, Off or DetectionOnly, got "${v}"`);
  return mode;
}

const ENTRIES: Array<[string, Handler]> = [
  ['secrule', (b, args, where) => {
    if (args.length < 2 || args.length > 3) throw new SecLangError(where, 'SecRule expects VARIABLES OPERATOR [ACTIONS]');
    b.addRule(args[0], args[1], args[2] ?? '', where);
  }],
  ['secaction', (b, args, where) => b.addRule(undefined, undefined, one(args, where, 'SecAction'), where)],
  ['secmarker', (b, args, where) => b.addMarker(one(args, where, 'SecMarker'), where)],
  ['secdefaultaction', (b, args, where) => b.setDefaultAction(one(args, where, 'SecDefaultAction'), where)],
  ['secruleremovebyid', (b, args, where) => modify.removeById(b, args, where)],
  ['secruleremovebytag', (b, args, where) => modify.removeByTag(b, args, where)],
  ['secruleremovebymsg', (b, args, where) => modify.removeByMsg(b, args, where)],
  ['secruleupdatetargetbyid', (b, args, where) => modify.updateTargetById(b, args, where)],
  ['secruleupdatetargetbytag', (b, args, where) => modify.updateTargetByTag(b, args, where)],
  ['secruleupdatetargetbymsg', (b, args, where) => modify.updateTargetByMsg(b, args, where)],
  ['secruleupdateactionbyid', (b, args, where) => modify.updateActionById(b, args, where)],
  setting('SecRuleEngine', 'ruleEngine', engineMode),
  setting('SecRequestBodyAccess', 'requestBodyAccess', onOff),
  setting('SecResponseBodyAccess', 'responseBodyAccess', onOff),
  setting('SecRequestBodyLimit', 'requestBodyLimit', bytes),
  setting('SecRequestBodyNoFilesLimit', 'requestBodyNoFilesLimit', bytes),
  setting('SecRequestBodyLimitAction', 'requestBodyLimitAction', limitAction),
  setting('SecResponseBodyLimit', 'responseBodyLimit', bytes),
  setting('SecResponseBodyLimitAction', 'responseBodyLimitAction', limitAction),
  setting('SecArgumentsLimit', 'argumentsLimit', bytes),
  setting('SecRequestBodyJsonDepthLimit', 'requestBodyJsonDepthLimit', bytes),
  setting('SecCollectionTimeout', 'collectionTimeout', bytes),
  setting('SecWebAppId', 'webAppId', (v) => v),
  setting('SecAuditEngine', 'auditEngine', (v, w, n) => {
    if (!/^(on|off|relevantonly)$/i.test(v)) throw new SecLangError(w, `${n} expects On, Off or RelevantOnly, got "${v}"`);
    return v;
  }),
  setting('SecAuditLogParts', 'auditLogParts', (v, w, n) => {
    if (!/^[A-KZ]+$/.test(v)) throw new SecLangError(w, `${n}: bad parts "${v}"`);
    return v;
  }),
  ['secargumentseparator', (b, args, where) => {
    const sep = one(args, where, 'SecArgumentSeparator');
    if (sep.length !== 1) throw new SecLangError(where, 'SecArgumentSeparator takes one character');
    b.settings.argumentSeparator = sep;
  }],
  ['seccomponentsignature', (b, args, where) => { b.settings.componentSignatures.push(one(args, where, 'SecComponentSignature')); }],
  ['secresponsebodymimetype', (b, args) => { b.settings.responseBodyMimeTypes.push(...args.flatMap((a) => a.split(/\s+/)).filter(Boolean)); }],
  ['secresponsebodymimetypesclear', (b) => { b.settings.responseBodyMimeTypes = []; }],
  ...IGNORED_DIRECTIVES.map((name): [string, Handler] => [name.toLowerCase(), () => {}]),
];

const HANDLERS = new Map<string, Handler>(ENTRIES.map(([name, handler]) => [name.toLowerCase(), handler]));

export function applyDirective(builder: RuleSetBuilder, directive: Directive): void {
  const where = { file: directive.file, line: directive.line };
  const handler = HANDLERS.get(directive.name.toLowerCase());
  if (handler === undefined) throw new SecLangError(where, `unknown directive ${directive.name}`);
  handler(builder, directive.args, where);
}
