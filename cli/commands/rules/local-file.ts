// A small local file a command sends to the daemon as text (rule files, PEM certificates): read
// through the injected Files, capped, named by its absolute path (the daemon may run elsewhere).
import { resolve } from 'node:path';
import { CliError } from '../../cli-error.js';
import type { CommandContext } from '../../context.js';

export async function readLocalText(ctx: CommandContext, flag: string, path: string, maxBytes: number): Promise<{ path: string; text: string }> {
  const absolute = resolve(path);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.deps.files.read(absolute)) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) throw new CliError('invalid_input', `${flag}: ${absolute} is over ${Math.round(maxBytes / 1024)} KiB`);
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError('file_not_found', `${flag}: no such file: ${absolute}`);
    throw new CliError('file_not_readable', `${flag}: cannot read ${absolute}: ${(error as Error).message}`);
  }
  return { path: absolute, text: Buffer.concat(chunks).toString('utf8') };
}
