// A parameter that may hold %{collection.key} macros: fixed text is used as is, text with a macro
// is expanded per call (ModSecurity expands on every evaluation).
import type { OperatorRuntime } from './types.js';

export type ParamText = (runtime: OperatorRuntime) => string;

export function macroParam(param: string): ParamText {
  if (!param.includes('%{')) return () => param;
  return (runtime) => runtime.expandMacros(param);
}
