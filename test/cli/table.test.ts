import { describe, expect, it } from 'vitest';
import { colourStyle } from '../../cli/style.js';
import { fitWidths, renderFields, renderTable, type Column } from '../../cli/table.js';

interface Row {
  id: number;
  name: string;
  note: string;
}

const columns: Column<Row>[] = [
  { header: 'ID', value: (r) => String(r.id), align: 'right' },
  { header: 'NAME', value: (r) => r.name },
  { header: 'NOTE', value: (r) => r.note },
];

const rows: Row[] = [
  { id: 1, name: 'example.com', note: 'first' },
  { id: 12, name: 'a.example', note: 'a much longer note than the others' },
];

describe('renderTable', () => {
  it('aligns columns under their headers, numbers to the right', () => {
    expect(renderTable(rows, columns)).toBe(
      ['ID  NAME         NOTE', ' 1  example.com  first', '12  a.example    a much longer note than the others', ''].join('\n'),
    );
  });

  it('fits the given width by shortening the widest column with an ellipsis', () => {
    const text = renderTable(rows, columns, { maxWidth: 30 });
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(30);
    expect(text).toContain('…');
    expect(text).toContain('example.com'); // the narrow column was left whole
  });

  it('never squeezes a column below four characters, even when the terminal is tiny', () => {
    expect(fitWidths([10, 10, 10], 5)).toEqual([4, 4, 4]);
  });

  it('keeps control characters out of cells so rows stay one line each', () => {
    const text = renderTable([{ id: 3, name: 'x\ny', note: 'tab\there' }], columns);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
  });

  it('colours after fitting, so escapes are never cut and widths stay right', () => {
    const coloured: Column<Row>[] = [...columns.slice(0, 2), { ...columns[2], paint: (t, s) => s.red(t) }];
    const text = renderTable(rows, coloured, { maxWidth: 30, style: colourStyle });
    expect(text).toMatch(/\u001b\[31m[^\u001b]*…\u001b\[39m/);
    expect(text).toContain('\u001b[1mID\u001b[22m');
  });
});

describe('renderFields', () => {
  it('aligns labels and never truncates values (a key shown once must be copied whole)', () => {
    const key = 'k'.repeat(64);
    expect(renderFields([['id', '1'], ['api_key', key]])).toBe(`id       1\napi_key  ${key}\n`);
  });
});
