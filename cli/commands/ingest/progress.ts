// One status line on a terminal's stderr, redrawn at most four times a second; nothing on a pipe.
import type { IngestSummary } from '../../../shared/ingest-client/ingest-run.js';
import type { Io } from '../../io.js';

export class ProgressLine {
  private lastDraw = 0;
  private drawn = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly io: Io,
    private readonly enabled: boolean,
  ) {}

  update(summary: IngestSummary): void {
    const now = Date.now();
    if (!this.enabled || now - this.lastDraw < 250) return;
    this.lastDraw = now;
    const rate = summary.read / Math.max(0.001, (now - this.startedAt) / 1000);
    this.io.stderr.write(`\r\x1b[2K${summary.read.toLocaleString('en-US')} read, ${summary.accepted.toLocaleString('en-US')} accepted, ${summary.rejected} rejected (${Math.round(rate).toLocaleString('en-US')}/s)`);
    this.drawn = true;
  }

  note(message: string): void {
    if (this.drawn) this.io.stderr.write('\r\x1b[2K');
    this.io.stderr.write(message + '\n');
  }

  end(): void {
    if (this.drawn) this.io.stderr.write('\r\x1b[2K');
  }
}
