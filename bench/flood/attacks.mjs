// Distinct scanner-like attacks for the flood bench: SQL injection, XSS, path traversal and
// command injection in the query string, each with random values and a random path, so no two
// requests (and no two stored URIs) are the same. Every one must be blocked by CRS PL1.
import { randomBytes } from 'node:crypto';

const word = () => randomBytes(6).toString('base64url');
const num = () => Math.floor(Math.random() * 1e9);
const q = encodeURIComponent;

const TEMPLATES = [
  () => `/${word()}/item.php?id=${num()}${q(`' UNION SELECT ${word()},password FROM users--`)}`,
  () => `/search/${word()}?q=${q(`<script>alert('${word()}')</script>`)}`,
  () => `/${word()}.php?file=${q(`../../../../etc/passwd`)}&v=${word()}`,
  () => `/api/${word()}?name=${q(`${word()}' OR '1'='1`)}&page=${num()}`,
  () => `/${word()}/view?cmd=${q(`;cat /etc/passwd #${word()}`)}`,
  () => `/img/${word()}?src=${q(`javascript:alert(${num()})`)}`,
];

/** The n-th attack path (templates in turn, values random). */
export function attackPath(n) {
  return TEMPLATES[n % TEMPLATES.length]();
}

/** A random public-looking IPv4 address (for X-Forwarded-For behind a trusted proxy). */
export function randomIp() {
  const b = randomBytes(4);
  return `${(b[0] % 200) + 11}.${b[1]}.${b[2]}.${b[3]}`;
}
