// The I/O a command may touch. Commands never reach for `process` themselves: tests hand them an
// in-memory Io and read back what was written, and main.ts hands them the real streams.

export interface TextSink {
  write(text: string): unknown;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface Io {
  stdout: TextSink;
  stderr: TextSink;
  /** Whether stdout is an interactive terminal (tables get colour and a width limit only then). */
  isTTY: boolean;
  /** Terminal width when known; undefined for pipes and files. */
  columns?: number;
  env: Env;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    isTTY: Boolean(process.stdout.isTTY),
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    env: process.env,
  };
}

/** An Io that records everything, for tests and for capturing a command's output. */
export interface RecordingIo extends Io {
  out(): string;
  err(): string;
}

export function recordingIo(options: { isTTY?: boolean; columns?: number; env?: Env } = {}): RecordingIo {
  let out = '';
  let err = '';
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    isTTY: options.isTTY ?? false,
    columns: options.columns,
    env: options.env ?? {},
    out: () => out,
    err: () => err,
  };
}
