// The action registry, keyed by lower-case SecLang name.
import type { ActionDefinition } from './action.js';
import { idAction } from './id.js';
import { phaseAction } from './phase.js';
import { msgAction } from './msg.js';
import { logdataAction } from './logdata.js';
import { severityAction } from './severity.js';
import { tagAction } from './tag.js';
import { verAction } from './ver.js';
import { revAction } from './rev.js';
import { maturityAction } from './maturity.js';
import { accuracyAction } from './accuracy.js';
import { transformAction } from './transform.js';
import { chainAction } from './chain.js';
import { passAction, blockAction, denyAction, dropAction, allowAction, redirectAction } from './disruptive.js';
import { statusAction } from './status.js';
import { captureAction } from './capture.js';
import { multiMatchAction } from './multi-match.js';
import { logAction, nologAction, auditlogAction, noauditlogAction } from './log-flags.js';
import { skipAction } from './skip.js';
import { skipAfterAction } from './skip-after.js';
import { setvarAction } from './setvar.js';
import { expirevarAction } from './expirevar.js';
import { initcolAction, setsidAction, setuidAction } from './initcol.js';
import { setenvAction } from './setenv.js';
import { ctlAction } from './ctl.js';

export const actions: ReadonlyMap<string, ActionDefinition> = new Map(
  [
    idAction, phaseAction, msgAction, logdataAction, severityAction, tagAction, verAction, revAction,
    maturityAction, accuracyAction, transformAction, chainAction, passAction, blockAction, denyAction,
    dropAction, allowAction, redirectAction, statusAction, captureAction, multiMatchAction, logAction,
    nologAction, auditlogAction, noauditlogAction, skipAction, skipAfterAction, setvarAction,
    expirevarAction, initcolAction, setsidAction, setuidAction, setenvAction, ctlAction,
  ].map((a) => [a.name, a]),
);

export type { ActionDefinition } from './action.js';
