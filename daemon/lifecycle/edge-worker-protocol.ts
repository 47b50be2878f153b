import type { Ban } from '../../shared/schemas/bans.js';
import type { CrsPlace } from '../crs/active-crs.js';
import type { EdgeHardening } from '../options/edge-limits-of.js';
import type { ShedderStats } from '../proxy/hardening/load-shedder.js';
import type { EdgeConfigInput } from '../proxy/snapshot-input.js';

// Messages between the daemon (node:cluster primary) and its edge workers (--workers N > 1).
// Counter hits and events use daemon/proxy/cluster-ipc.ts's own messages on the same channel.

export const INIT = 'wafctl:edge-init';
export const SNAPSHOT = 'wafctl:edge-snapshot';
export const STOP = 'wafctl:edge-stop';
export const LISTENING = 'wafctl:edge-listening';
export const FAILED = 'wafctl:edge-failed';
export const STOPPED = 'wafctl:edge-stopped';
export const LOG = 'wafctl:edge-log';
/** The worker's shedder counts (cumulative), every LOAD_REPORT_MS while they change and once more on stop. */
export const LOAD = 'wafctl:edge-load';
export const LOAD_REPORT_MS = 1_000;
/** Primary -> worker: switch to other CRS rules (a reload); the worker answers CRS_SWITCHED once its sites run them. */
export const SWITCH_CRS = 'wafctl:edge-switch-crs';
export const CRS_SWITCHED = 'wafctl:edge-crs-switched';
/** Sent once the worker listens for messages: anything sent before that would be lost. */
export const READY = 'wafctl:edge-ready';
/** Primary -> worker: the live bans, whole, each time they change (daemon/bans/). */
export const BANS = 'wafctl:edge-bans';

export interface InitMessage {
  type: typeof INIT;
  input: EdgeConfigInput;
  tls: { cert: string; key: string };
  host: string;
  ports: { edge: number; edgeTls: number };
  trustedProxies: string[];
  /** Hex: every worker must sign and check challenge cookies with the same key. */
  challengeSecret: string;
  /** The CRS directory and plugin directories: each worker compiles the rule groups itself (compiled rules cannot cross IPC). */
  crs: CrsPlace;
  /** Request limits, slow-client timeouts and shedding bounds (the edge_* options); each worker sheds on its own. */
  hardening: EdgeHardening;
  /** The live bans when the worker starts; BANS messages bring the changes. */
  bans: Ban[];
}
export interface SnapshotMessage { type: typeof SNAPSHOT; input: EdgeConfigInput }
export interface BansMessage { type: typeof BANS; bans: Ban[] }
export interface SwitchCrsMessage { type: typeof SWITCH_CRS; crs: CrsPlace; id: number }
export interface CrsSwitchedMessage { type: typeof CRS_SWITCHED; id: number }
export interface StopMessage { type: typeof STOP; drainMs: number }
export interface ListeningMessage { type: typeof LISTENING; edge: number; edgeTls: number }
export interface FailedMessage { type: typeof FAILED; message: string; code?: string; port?: number }
export interface StoppedMessage { type: typeof STOPPED }
export interface ReadyMessage { type: typeof READY }
export interface LogMessage { type: typeof LOG; level: 'warn' | 'error'; message: string }
export interface LoadMessage { type: typeof LOAD; stats: ShedderStats }

export type ToWorker = InitMessage | SnapshotMessage | StopMessage | SwitchCrsMessage | BansMessage;
export type FromWorker = ReadyMessage | ListeningMessage | FailedMessage | StoppedMessage | LogMessage | LoadMessage | CrsSwitchedMessage;
