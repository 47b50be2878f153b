// `--plugin contact-form-7@5.8` and `--theme astra@4.1` (repeatable) as check items. The last
// `@` splits, so a version may not contain one but a slug never does anyway.

export type ComponentArgs = { ok: true; items: { slug: string; version: string }[] } | { ok: false; message: string };

export function parseComponentArgs(values: readonly string[], option: '--plugin' | '--theme'): ComponentArgs {
  const items: { slug: string; version: string }[] = [];
  for (const value of values) {
    const at = value.lastIndexOf('@');
    const slug = at < 0 ? '' : value.slice(0, at).trim();
    const version = at < 0 ? '' : value.slice(at + 1).trim();
    if (slug === '' || version === '') {
      return { ok: false, message: `${option} ${JSON.stringify(value)}: expected SLUG@VERSION, e.g. ${option === '--plugin' ? 'contact-form-7@5.8' : 'astra@4.1'}` };
    }
    items.push({ slug, version });
  }
  return { ok: true, items };
}
