import { describe, expect, it } from 'vitest';
import { recordingIo } from '../../cli/io.js';
import { defaultGlobals, formatError, Output, tableWidthFor } from '../../cli/output.js';
import { colourWanted } from '../../cli/style.js';

const columns = [{ header: 'NAME', value: (r: { name: string }) => r.name }];

describe('Output', () => {
  it('--json prints exactly the data, and [] for an empty list', () => {
    const io = recordingIo();
    const out = new Output(io, { ...defaultGlobals, json: true });
    out.list([], columns, { empty: 'no sites' });
    out.data({ api_key: 'k' }, () => 'human');
    expect(io.out()).toBe('[]\n{\n  "api_key": "k"\n}\n');
    expect(io.err()).toBe('');
  });

  it('sends data to stdout and messages to stderr', () => {
    const io = recordingIo();
    const out = new Output(io, defaultGlobals);
    out.info('site added');
    out.list([{ name: 'a.example' }], columns);
    expect(io.out()).toBe('NAME\na.example\n');
    expect(io.err()).toBe('site added\n');
  });

  it('says "empty" on stderr for humans, so a pipe reading stdout sees nothing', () => {
    const io = recordingIo();
    new Output(io, defaultGlobals).list([], columns, { empty: 'no sites yet' });
    expect(io.out()).toBe('');
    expect(io.err()).toBe('no sites yet\n');
  });

  it('-q silences messages but never data or errors; -v adds detail', () => {
    const io = recordingIo();
    const quiet = new Output(io, { ...defaultGlobals, quiet: true });
    quiet.info('chatter');
    quiet.detail('more chatter');
    quiet.data({ a: 1 }, () => 'a=1');
    quiet.error({ code: 'not_found', message: 'no such site' });
    expect(io.out()).toBe('a=1\n');
    expect(io.err()).toBe('error: not_found: no such site\n');
    const io2 = recordingIo();
    new Output(io2, { ...defaultGlobals, verbose: true }).detail('spawned pid 7');
    expect(io2.err()).toBe('spawned pid 7\n');
  });

  it('formats errors as `error: <code>: <message>` with an optional hint line', () => {
    expect(formatError({ code: 'daemon_unreachable', message: 'no daemon', hint: 'try `wafctl daemon start`' })).toBe(
      'error: daemon_unreachable: no daemon\nhint: try `wafctl daemon start`\n',
    );
  });

  it('fits tables to the terminal width on a TTY, to $COLUMNS in a pipe when set, else not at all', () => {
    expect(tableWidthFor(recordingIo({ isTTY: true, columns: 60 }))).toBe(60);
    expect(tableWidthFor(recordingIo({ isTTY: false, env: { COLUMNS: '100' } }))).toBe(100);
    expect(tableWidthFor(recordingIo({ isTTY: false }))).toBeUndefined();
  });
});

describe('colour', () => {
  it('only on a TTY, and never with NO_COLOR, CI, TERM=dumb or --no-color', () => {
    expect(colourWanted({ isTTY: true, env: {}, colorFlag: true })).toBe(true);
    expect(colourWanted({ isTTY: false, env: {}, colorFlag: true })).toBe(false);
    expect(colourWanted({ isTTY: true, env: { NO_COLOR: '1' }, colorFlag: true })).toBe(false);
    expect(colourWanted({ isTTY: true, env: { CI: 'true' }, colorFlag: true })).toBe(false);
    expect(colourWanted({ isTTY: true, env: { TERM: 'dumb' }, colorFlag: true })).toBe(false);
    expect(colourWanted({ isTTY: true, env: {}, colorFlag: false })).toBe(false);
  });

  it('colours a TTY table header and leaves a piped one plain', () => {
    const tty = recordingIo({ isTTY: true, columns: 80 });
    new Output(tty, defaultGlobals).list([{ name: 'x.example' }], columns);
    expect(tty.out()).toContain('\u001b[1mNAME');
    const pipe = recordingIo();
    new Output(pipe, defaultGlobals).list([{ name: 'x.example' }], columns);
    expect(pipe.out()).not.toContain('\u001b');
  });
});
