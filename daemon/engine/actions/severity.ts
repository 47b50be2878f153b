// severity:CRITICAL or severity:2 — stored as the syslog number (0 EMERGENCY ... 7 DEBUG).
import type { ActionDefinition } from './action.js';

export const SEVERITY_NAMES = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'];

export const severityAction: ActionDefinition = {
  name: 'severity',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    const text = param!.trim().toUpperCase();
    const byName = SEVERITY_NAMES.indexOf(text);
    const level = byName >= 0 ? byName : /^[0-7]$/.test(text) ? Number(text) : -1;
    if (level < 0) throw new Error(`unknown severity "${param}"`);
    rule.severity = level;
  },
};
