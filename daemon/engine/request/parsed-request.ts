// The request parts the variables read, computed once per transaction from the EngineRequest.
import { KeyedList } from '../collections/keyed-list.js';
import type { EngineRequest } from './model.js';
import { splitRequestTarget } from './uri.js';
import { parseQueryArguments } from './query-args.js';
import { parseCookieHeader } from './cookies.js';
import { apacheGetParents, apacheUnescapePath } from './apache-path.js';

export class ParsedRequest {
  readonly method: string;
  readonly protocol: string;
  readonly requestLine: string;
  readonly uriRaw: string;
  readonly uri: string;
  readonly path: string;
  readonly query: string;
  readonly basename: string;
  readonly headers: KeyedList;
  readonly cookies: KeyedList;
  readonly argsGet: KeyedList;
  readonly remoteAddr: string;
  readonly remotePort: number;
  readonly serverAddr: string;
  readonly serverPort: number;
  readonly serverName: string;
  readonly body: Buffer | undefined;

  constructor(request: EngineRequest, argumentSeparator: string) {
    this.method = request.method;
    this.protocol = request.protocol;
    this.uriRaw = request.uri;
    this.requestLine = request.requestLine ?? `${request.method} ${request.uri} ${request.protocol}`;
    const parts = splitRequestTarget(request.uri);
    this.uri = parts.uri;
    this.path = parts.path;
    this.query = parts.query;
    this.basename = parts.basename;
    this.headers = KeyedList.fromPairs(request.headers);
    const cookies: Array<[string, string]> = [];
    for (const entry of this.headers.byKey('cookie')) parseCookieHeader(entry.value, cookies);
    this.cookies = KeyedList.fromPairs(cookies);
    this.argsGet = KeyedList.fromPairs(parseQueryArguments(parts.query, argumentSeparator));
    this.remoteAddr = request.remoteAddr;
    this.remotePort = request.remotePort;
    this.serverAddr = request.serverAddr ?? '';
    this.serverPort = request.serverPort ?? 0;
    const host = this.headers.byKey('host')[0]?.value ?? '';
    this.serverName = host.replace(/:\d+$/, '');
    this.body = request.body;
  }

  private decoded: { path: string; basename: string } | undefined;

  /** REQUEST_FILENAME / REQUEST_BASENAME from phase 2 on (see apache-path.ts). */
  decodedPath(): { path: string; basename: string } {
    if (this.decoded === undefined) {
      const unescaped = apacheUnescapePath(this.path);
      const path = unescaped === undefined ? this.path : apacheGetParents(unescaped);
      const slash = path.lastIndexOf('/');
      this.decoded = { path, basename: slash < 0 ? path : path.slice(slash + 1) };
    }
    return this.decoded;
  }

  header(lowerName: string): string | undefined {
    return this.headers.byKey(lowerName)[0]?.value;
  }
}
