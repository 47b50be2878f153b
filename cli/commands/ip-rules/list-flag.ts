// --whitelist / --blacklist: exactly one names the list a command acts on.
import type { IpListType } from '../../../shared/schemas/management-api.js';
import { usageError } from '../../cli-error.js';

export interface ListFlags {
  whitelist?: boolean;
  blacklist?: boolean;
}

export function listFromFlags(flags: ListFlags): IpListType {
  if (flags.whitelist && flags.blacklist) throw usageError('give either --whitelist or --blacklist, not both');
  if (flags.whitelist) return 'whitelist';
  if (flags.blacklist) return 'blacklist';
  throw usageError('name the list with --whitelist or --blacklist');
}
