// Probes that get through our edge today: findings, listed so that the suite stays green while
// they stay visible. The test asserts that each one is STILL a bypass, so fixing one makes the
// suite fail until its line goes (README.md, "Known bypasses"). nginx + ModSecurity v3 lets all
// of them through too (RESULTS.md).

export const KNOWN_BYPASSES: ReadonlyMap<string, string> = new Map([
  ['multipart with the payload in a file name',
    'CRS 3.3 does not look at FILES (file names) for XSS; applications that show upload names get <script>; the engine runs the rules as written'],
]);
