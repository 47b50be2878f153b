import type { IpKey } from './ip-set.js';
import type { CompiledSite } from './snapshot.js';

/** What the checks read about a request: parsed once in the listener, never mutated. */
export interface EdgeRequest {
  readonly requestId: string;
  /** Epoch ms when the request head arrived. */
  readonly receivedAt: number;
  readonly method: string;
  /** Request target as received. */
  readonly uri: string;
  /** requestPaths(uri).path: the normal form page protection and rate limits match (path-normal-form.ts). */
  readonly path: string;
  /** requestPaths(uri).unresolved: the path with its `..` segments in place, matched too; absent or null when it has none. */
  readonly pathUnresolved?: string | null;
  readonly host: string;
  readonly client: IpKey;
  /** '' when geoip-country does not know the address. */
  readonly country: string;
  readonly userAgent: string;
  readonly referer: string | undefined;
  readonly cookie: string | undefined;
  readonly secure: boolean;
  readonly site: CompiledSite;
}
