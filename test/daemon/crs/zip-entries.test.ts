import { describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { zipEntries, ZipError } from '../../../daemon/crs/zip-entries.js';
import { bundleFrom } from '../../../daemon/crs/plugin-bundle.js';

interface Member { path: string; data?: Buffer; deflate?: boolean; link?: boolean; encrypted?: boolean; statedSize?: number }

/** A zip as GitHub writes one: local headers, then the central directory, then its end record. */
function zip(members: readonly Member[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const raw = m.data ?? Buffer.alloc(0);
    const packed = m.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(m.path);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(m.encrypted ? 1 : 0, 6);
    local.writeUInt16LE(m.deflate ? 8 : 0, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(m.encrypted ? 1 : 0, 8);
    entry.writeUInt16LE(m.deflate ? 8 : 0, 10);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(m.statedSize ?? raw.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(((m.link ? 0o120777 : 0o100644) << 16) >>> 0, 38);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(entry, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const RULE = Buffer.from('SecRule ARGS "@streq x" "id:9500010,phase:2,deny"\n');

describe('zipEntries', () => {
  it('reads stored and deflated files, directories and links (links as values, never followed)', () => {
    const entries = zipEntries(zip([
      { path: 'p-main/' },
      { path: 'p-main/plugins/demo-before.conf', data: RULE, deflate: true },
      { path: 'p-main/README.md', data: Buffer.from('hi') },
      { path: 'p-main/evil', link: true, data: Buffer.from('/etc/passwd') },
    ]), 1 << 20);
    expect(entries.map((e) => [e.path, e.kind])).toEqual([['p-main', 'directory'], ['p-main/plugins/demo-before.conf', 'file'], ['p-main/README.md', 'file'], ['p-main/evil', 'link']]);
    expect(entries[1].bytes.equals(RULE)).toBe(true);
    expect(entries[3].bytes.length).toBe(0);
  });

  it('refuses what is not a zip, encrypted entries, entries over the size cap and sizes that lie', () => {
    expect(() => zipEntries(Buffer.from('not a zip at all, just some text here'), 1 << 20)).toThrow(ZipError);
    expect(() => zipEntries(zip([{ path: 'a', data: RULE, encrypted: true }]), 1 << 20)).toThrow(/encrypted/);
    expect(() => zipEntries(zip([{ path: 'a', data: Buffer.alloc(2048), deflate: true }]), 1024)).toThrow(/more than 1024 bytes/);
    expect(() => zipEntries(zip([{ path: 'a', data: RULE, deflate: true, statedSize: 10 }]), 1 << 20)).toThrow(ZipError);
    const cut = zip([{ path: 'a', data: RULE }]);
    cut.writeUInt32LE(0x7fffffff, cut.length - 22 - 46 - 1 + 43); // the entry's local header offset, far outside
    expect(() => zipEntries(cut, 1 << 20)).toThrow(ZipError);
  });
});

describe('bundleFrom', () => {
  const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)]));

  it('finds the plugin by its shape and reads its version from the header comment or the ver action', () => {
    const a = bundleFrom(files({ 'x-1.0/plugins/demo-config.conf': '# Plugin version: v1.2.3\n', 'x-1.0/plugins/demo-before.conf': 'x', 'x-1.0/README.md': '' }), 'src');
    expect([a.name, a.version, [...a.files.keys()].sort()]).toEqual(['demo', '1.2.3', ['demo-before.conf', 'demo-config.conf']]);
    const b = bundleFrom(files({ 'demo-config.conf': "SecAction \"id:1,ver:'demo-plugin/2.0.1'\"" }), 'src');
    expect(b.version).toBe('2.0.1');
    expect(bundleFrom(files({ 'plugins/demo-after.conf': '' }), 'src').version).toBeNull();
  });

  it('refuses a source with no plugin, two plugins, plugin files in two places, or an unusable name', () => {
    expect(() => bundleFrom(files({ 'README.md': '' }), 'src')).toThrow(/holds no CRS plugin/);
    expect(() => bundleFrom(files({ 'plugins/a-before.conf': '', 'plugins/b-before.conf': '' }), 'src')).toThrow(/more than one plugin/);
    expect(() => bundleFrom(files({ 'one/plugins/a-before.conf': '', 'two/plugins/a-after.conf': '' }), 'src')).toThrow(/more than one place/);
    expect(() => bundleFrom(files({ 'plugins/-x-before.conf': '' }), 'src')).toThrow(/not a usable plugin name/);
  });
});
