// npx tsx test/crs4/run-report4.ts [train|wordpress] [title-filter]: runs a CRS 4.28 part through the
// edge and prints every failure with its reason and the rule ids that fired, then the figures.
import { join } from 'node:path';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { CRS4_DIR, loadCrs4CiWaf } from './crs4-ci-waf.js';
import { runGoFtwConformance } from './conformance4.js';
import { loadGoFtwTests } from './go-ftw-suite.js';

const part = process.argv[2] ?? 'train';
const filter = process.argv[3];
const wordpress = join(CRS4_DIR, 'wordpress-plugin');
const started = performance.now();
const waf = loadCrs4CiWaf(defaultRegistries, part === 'wordpress' ? [join(wordpress, 'plugins')] : []);
const loadMs = performance.now() - started;
const root = part === 'wordpress' ? join(wordpress, 'tests') : join(CRS4_DIR, 'tests');
const tests = loadGoFtwTests(root).filter((t) => filter === undefined || t.title.startsWith(filter) || t.file.includes(filter));
const results = await runGoFtwConformance(waf, tests);
for (const r of results) if (!r.passed) console.log(`FAIL\t${r.title}\t${r.file}\t${r.reason}\tfired=[${r.firedIds.join(',')}]`);
console.log(`${results.filter((r) => r.passed).length}/${results.length} passed; load ${loadMs.toFixed(0)} ms, run ${((performance.now() - started - loadMs) / 1000).toFixed(1)} s`);
