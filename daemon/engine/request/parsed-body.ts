// What phase 2 knows about the request body once the body processor has run.
import { KeyedList, EMPTY_LIST, VarEntry } from '../collections/keyed-list.js';
import type { BodyParseResult, MultipartDetails } from '../body-processors/types.js';

export class ParsedBody {
  readonly argsPost: KeyedList;
  readonly files: KeyedList;
  readonly fileNames: KeyedList;
  readonly fileSizes: KeyedList;
  readonly filesCombinedSize: number;
  readonly multipart: MultipartDetails | undefined;
  readonly multipartFlags: ReadonlyMap<string, number>;
  readonly multipartPartHeaders: KeyedList;
  readonly xml: BodyParseResult['xml'];
  readonly error: string | undefined;
  /** Where a limit stopped the body processor (bytes read); undefined when it read the whole body. */
  readonly stoppedAt: number | undefined;

  constructor(
    /** REQBODY_PROCESSOR: URLENCODED, MULTIPART, JSON, XML, or '' when none ran. */
    readonly processor: string,
    /** REQUEST_BODY, when ModSecurity would expose it. */
    readonly raw: string | undefined,
    readonly length: number,
    result: BodyParseResult | undefined,
  ) {
    this.argsPost = result ? KeyedList.fromPairs(result.args) : EMPTY_LIST;
    const files = result?.files ?? [];
    this.files = new KeyedList(files.map((f) => new VarEntry(f.fieldName, f.fileName)));
    this.fileNames = new KeyedList(files.map((f) => new VarEntry(f.fieldName, f.fieldName)));
    this.fileSizes = new KeyedList(files.map((f) => new VarEntry(f.fieldName, String(f.size))));
    this.filesCombinedSize = files.reduce((sum, f) => sum + f.size, 0);
    this.multipart = result?.multipart;
    this.multipartFlags = new Map(Object.entries(result?.multipart?.flags ?? {}).map(([k, v]) => [k.toUpperCase(), v]));
    this.multipartPartHeaders = result?.multipart ? KeyedList.fromPairs(result.multipart.partHeaders) : EMPTY_LIST;
    this.xml = result?.xml;
    this.error = result?.error;
    this.stoppedAt = result?.stoppedAt;
  }
}

export const NO_BODY = new ParsedBody('', undefined, 0, undefined);
