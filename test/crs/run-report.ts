// npx tsx test/crs/run-report.ts [title-filter]: runs the CRS conformance suite and prints
// per-file pass figures beside ModSecurity v2 and v3, then every failure with its reason.
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { loadCiWaf } from './ci-waf.js';
import { formatReport, loadSuite, runConformance } from './conformance.js';

const filter = process.argv[2];
const started = performance.now();
const waf = loadCiWaf(defaultRegistries);
const loadMs = performance.now() - started;
const tests = loadSuite().filter((t) => filter === undefined || t.title.startsWith(filter) || t.file.includes(filter));
const results = await runConformance(waf, tests);
for (const line of formatReport(results)) console.log(line);
for (const r of results) if (!r.passed) console.log(`FAIL ${r.title} (${r.file}): ${r.reason} fired=[${r.firedIds.join(',')}]`);
console.log(`load ${loadMs.toFixed(0)} ms, run ${((performance.now() - started - loadMs) / 1000).toFixed(1)} s`);
