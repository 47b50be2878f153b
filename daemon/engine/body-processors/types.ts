// See ../CONTRACT.md: body in, ARGS_POST / FILES / MULTIPART_* / XML out.
export interface BodyLimits {
  /** SecRequestBodyLimit. The caller enforces it on the transport; processors parse what they get. */
  maxBytes: number;
  /** SecArgumentsLimit: how many arguments the body may add (the caller subtracts query arguments). */
  maxArgs: number;
  /** SecArgumentSeparator for URLENCODED bodies; '&' when absent. */
  argumentSeparator?: string;
  /** SecRequestBodyJsonDepthLimit; 10000 when absent (ModSecurity's default). */
  maxJsonDepth?: number;
  /** SecUploadFileLimit, applied only when set (ModSecurity counts files only when it extracts them). */
  maxFiles?: number;
  /** SecRequestBodyNoFilesLimit for MULTIPART: part headers and form field values count against it,
   *  as in ModSecurity (the caller applies it to the whole body for the other processors). */
  maxNoFilesBytes?: number;
  /** The time budget's checkpoint (parse-clock.ts): called every so often while parsing; it throws
   *  (EngineBudgetExceeded) to stop a parse that has used the request's time. */
  checkpoint?: () => void;
}

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  size: number;
  contentType: string;
}

export interface MultipartDetails {
  flags: Record<string, number>;
  partHeaders: Array<[string, string]>;
  fileNames: string[];
  names: string[];
}

export interface BodyParseResult {
  args: Array<[string, string]>;
  files: UploadedFile[];
  multipart?: MultipartDetails;
  xml?: { select(xpath: string): string[] };
  error?: string;
  /** URLENCODED_ERROR: a name or value held an invalid %-encoding (the body still parsed). */
  urlencodedError?: boolean;
  /** Where in the body a limit stopped the parse (bytes read); absent when the whole body was read. */
  stoppedAt?: number;
  /** MULTIPART: the part headers and field values passed `maxNoFilesBytes` (the parse stopped there). */
  noFilesOverLimit?: boolean;
}

export type BodyProcessor = (body: Buffer, contentType: string, limits: BodyLimits) => BodyParseResult;
