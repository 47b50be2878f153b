/**
 * libinjection in TypeScript: SQLi and XSS detection following libinjection's published
 * algorithm and data (BSD-3-Clause, see LICENSE). Inputs are byte strings (char codes 0-255).
 */
export { detectSQLi, type SqliResult } from './sqli.js';
export { detectXSS } from './xss.js';
