// See ../CONTRACT.md: body in, ARGS_POST / FILES / MULTIPART_* / XML out.
export interface BodyLimits {
  maxBytes: number;
  maxArgs: number;
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
}

export type BodyProcessor = (body: Buffer, contentType: string, limits: BodyLimits) => BodyParseResult;
