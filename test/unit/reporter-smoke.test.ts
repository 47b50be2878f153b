import { describe, expect, it } from 'vitest';

describe('toolchain', () => {
  it('runs TypeScript tests on Node 20+', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(20);
  });
});
