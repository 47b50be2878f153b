// How failing background writes (events, daemon.log) read in `daemon status`: a field per failing
// kind beside the others, and a warning on stderr, since such a daemon still serves and blocks but
// keeps no record of it.
import type { DaemonStatusView } from '../../admin-api.js';
import type { WriteFailure } from '../../../shared/schemas/admin.js';
import type { CommandContext } from '../../context.js';

const KINDS = [['events', 'event writes'], ['log', 'log writes']] as const;

function describe(f: WriteFailure): string {
  return `FAILING since ${f.failing_since}: ${f.error} writing ${f.path} (${f.failed_writes.toLocaleString('en-US')} failed)`;
}

export function writeFailureFields(status: DaemonStatusView): Array<[string, string]> {
  const failures = status.write_failures;
  if (!failures) return [];
  return KINDS.flatMap(([key, label]): Array<[string, string]> => (failures[key] ? [[label, describe(failures[key])]] : []));
}

export function warnWriteFailures(ctx: CommandContext, status: DaemonStatusView): void {
  const failures = status.write_failures;
  if (!failures) return;
  for (const [key, label] of KINDS) {
    const f = failures[key];
    if (f) ctx.out.warn(`${label} are failing (${f.error} writing ${f.path}): requests are still served, but not recorded; free space or fix the permission, and they resume by themselves`);
  }
}
