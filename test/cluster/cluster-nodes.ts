// Real daemons as cluster nodes for the cluster tests: each its own sandbox, data dir and free
// ports, all on one test database; loopback is a trusted proxy so a test picks the client address
// with X-Forwarded-For. Requests to the edges and the management API go over real sockets.
// Also used by bench/cluster, so failures are thrown errors rather than vitest assertions.
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { newSandbox, quickStartFlags, type E2eDaemon } from '../e2e/daemon-harness.js';

export interface ClusterNode {
  d: E2eDaemon;
  /** Flags it was started with, to start it again after a stop. */
  flags: string[];
  status: NodeStatus;
  agent: Agent;
}

interface NodeStatus {
  pid: number;
  api_url: string;
  ca_file: string;
  ports: { edge: number };
}

/** `more`: extra flags (--cluster-redis URL, --workers 2) and environment (a clock preload) for this node. */
export async function startNode(databaseUrl: string, more: { flags?: string[]; env?: Record<string, string> } = {}): Promise<ClusterNode> {
  const d = await newSandbox();
  d.box.env.WAFCTL_TRUSTED_PROXIES = '127.0.0.1';
  Object.assign(d.box.env, more.env ?? {});
  const flags = [...(await quickStartFlags(d.box)), '--cluster-postgres', databaseUrl, ...(more.flags ?? [])];
  return startAgain({ d, flags } as ClusterNode);
}

/** Starts the node's daemon (again) with its flags; its data dir, and so its cache, stays. */
export async function startAgain(node: Pick<ClusterNode, 'd' | 'flags'>): Promise<ClusterNode> {
  const start = await node.d.wafctl('daemon', 'start', ...node.flags);
  if (start.code !== 0) throw new Error(`daemon start exited ${start.code}: ${start.stderr}`);
  const status = JSON.parse((await node.d.wafctl('--json', 'daemon', 'status')).stdout) as NodeStatus;
  const agent = new Agent({ ca: await readFile(status.ca_file, 'utf8'), keepAlive: false });
  return { d: node.d, flags: node.flags, status, agent };
}

/** Adds a site through the node's admin socket; returns its API key. */
export async function addSite(node: ClusterNode, domain: string, origin: string): Promise<string> {
  const added = await node.d.wafctl('--json', 'site', 'add', domain, '--origin', origin, '--no-login');
  if (added.code !== 0) throw new Error(`site add exited ${added.code}: ${added.stderr}`);
  return (JSON.parse(added.stdout) as { api_key: string }).api_key;
}

/** The status a client at `client` gets from the node's edge for `host` (and `path`). */
export function edgeStatus(node: ClusterNode, host: string, client: string, path = '/'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: node.status.ports.edge, path, agent: false, headers: { host, 'x-forwarded-for': client } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One management API call to the node, with the site's key. */
export function api(node: ClusterNode, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json', 'x-service-key': key };
    if (text !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    const req = httpsRequest(new URL(`/api/v1${path}`, node.status.api_url), { method, agent: node.agent, headers }, (res) => {
      let answer = '';
      res.on('data', (chunk) => (answer += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: answer ? JSON.parse(answer) : null }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/**
 * Waits until the node's edge answers `expected` for this host and client. Bounded by tries, not by
 * a time: generous enough for the 5 s poll and a reconnect on a loaded box, and it returns as soon
 * as the change shows.
 */
export async function untilEdge(node: ClusterNode, host: string, client: string, expected: number): Promise<boolean> {
  for (let tries = 0; tries < 3000; tries++) {
    if ((await edgeStatus(node, host, client).catch(() => 0)) === expected) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** The sites' origin: a plain server on loopback answering "origin ok"; close() stops it. */
export async function startOrigin(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
