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
  /** normalizePath(uri): what page protection and rate limits match. */
  readonly path: string;
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
