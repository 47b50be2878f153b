// Test helper: an OperatorRuntime that records captures and GEO fields in plain maps.
import type { OperatorRuntime } from '../../../../daemon/engine/operators/index.js';

export interface RecordingRuntime extends OperatorRuntime {
  captures: Map<number, string>;
  geo: Record<string, string>;
  capturing: boolean;
}

export function fakeRuntime(options: { capturing?: boolean; macros?: Record<string, string> } = {}): RecordingRuntime {
  const captures = new Map<number, string>();
  const rt: RecordingRuntime = {
    captures,
    geo: {},
    capturing: options.capturing ?? false,
    expandMacros: (text) => text.replace(/%\{([^}]+)\}/g, (_, key: string) => options.macros?.[key.toLowerCase()] ?? ''),
    setCapture: (i, v) => { captures.set(i, v); },
    unsetCapture: (i) => { captures.delete(i); },
    setGeo: (fields) => { rt.geo = fields; },
  };
  return rt;
}
