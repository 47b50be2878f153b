// A non-disruptive action's work at match time (setvar, ctl, initcol, expirevar, ...). Built
// once at load; the transaction passes itself in.
import type { ActionContext } from '../actions/context.js';

export type Effect = (tx: ActionContext) => void;
