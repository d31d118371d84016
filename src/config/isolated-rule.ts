// Custom rules are loaded and run in a worker thread with a deadline, behind a proxy with the engine's synchronous interface: the
// proxy's check(context) sends the scope's model input (rule-snapshot.ts) to the worker (rule-worker.ts), blocks on
// a shared word with Atomics.wait for at most the rule's time, reads the reply with receiveMessageOnPort, and
// issues each report through the real context.report with the main thread's resource. A rule that does not finish
// in time has its worker terminated and becomes an error the engine reports as pvlint/rule-crash; the other rules
// run, and the next custom rule gets a fresh worker. One worker serves every custom rule and scope of a run while it
// is healthy, and keeps each scope's model until the next scope's arrives. Loading a rule module (load()) waits
// without blocking the main thread: its metadata comes back as data, and a module that never finishes loading is
// stopped at the same deadline as a check.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { StorageModel } from '../model/storage-model.js';
import type { RuleContext } from '../engine/rule-module.js';
import type { Resource } from '../types.js';
import { whileSignalsCannotBeHandled } from '../render/interrupt.js';
import { takeSnapshot, type ResourceRef } from './rule-snapshot.js';
import { CHECKING, EXITED, WAITING, type CheckReply, type CheckRequest, type LoadReply, type LoadRequest } from './rule-worker.js';

/** How long one custom rule may run on one scope, by default. */
export const DEFAULT_CUSTOM_RULE_TIMEOUT_MS = 10_000;
/**
 * How long starting a worker, loading a rule module in it (its top-level code) and building the scope's model may
 * take before check() starts: not counted in the rule's own time, but bounded too.
 */
const SETUP_TIMEOUT_MS = 60_000;
/** An idle worker is let go after this long, so a program that lints many times holds no thread between runs. */
const IDLE_MS = 2_000;

export class RuleTimeout extends Error {}

interface LiveWorker {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  /** The snapshot this worker holds. */
  snapshotId?: number;
  idle?: NodeJS.Timeout;
}

/** The worker custom rules of one run share. */
export class RuleWorkerPool {
  private live: LiveWorker | undefined;
  private readonly snapshots = new WeakMap<readonly Resource[], { id: number; resolve: (ref: ResourceRef) => Resource | undefined; snapshot: ReturnType<typeof takeSnapshot>['snapshot'] }>();
  private nextSnapshot = 1;

  /** `preloadTypescript`: some rule files are TypeScript, and each worker loads the parser as it starts. */
  constructor(private readonly pvlintUrl: string, private readonly preloadTypescript = false) {}

  /**
   * Imports the rule module at `url` in the worker: its id and metadata, why it is not a rule, or why it could not
   * be loaded. A module whose top-level code does not finish within `timeoutMs` has its worker terminated.
   */
  async load(url: string, timeoutMs: number): Promise<LoadReply> {
    const live = this.worker();
    Atomics.store(live.signal, 0, WAITING);
    live.port.postMessage({ load: url } satisfies LoadRequest);
    // The worker and its thread are unref'd, and a pending Atomics.waitAsync does not keep the event loop alive
    // either: without a handle of its own, the process would end, silently and with exit code 0, mid-wait.
    const keepAlive = setInterval(() => undefined, 1_000);
    try {
      // Starting the worker (and loading the TypeScript parser) is pvlint's time, bounded apart; the deadline counts
      // from the moment the worker starts importing the module.
      if (!(await this.waitAsyncWhile(live, WAITING, SETUP_TIMEOUT_MS))) {
        this.stop();
        return { error: { message: `its worker thread did not start within ${formatSeconds(SETUP_TIMEOUT_MS)}; it was stopped` } };
      }
      if (!(await this.waitAsyncWhile(live, CHECKING, timeoutMs))) {
        this.stop();
        return { error: { message: `the rule module did not finish loading within ${formatSeconds(timeoutMs)} (customRuleTimeout; top-level code that never ends, or a top-level await that never settles?); it was stopped` } };
      }
    } finally {
      clearInterval(keepAlive);
    }
    const message = receiveMessageOnPort(live.port);
    if (Atomics.load(live.signal, 0) === EXITED || !message) {
      this.stop();
      return { error: { message: 'its worker thread exited while loading it (process.exit() in the module?)' } };
    }
    this.idleLater(live);
    return message.message as LoadReply;
  }

  /**
   * Runs the rule at `url` on the model's scope in the worker: its reports, each with the main thread's resources,
   * or throws (what check() threw, a RuleTimeout, or why the worker could not answer).
   */
  check(url: string, model: StorageModel, options: unknown, timeoutMs: number): { reply: CheckReply; resolve: (ref: ResourceRef) => Resource | undefined } {
    // The model's resources array changes when a deferred kind is read: the snapshot is taken of what it is now.
    let taken = this.snapshots.get(model.resources);
    if (!taken) {
      taken = { id: this.nextSnapshot++, ...takeSnapshot(model) };
      this.snapshots.set(model.resources, taken);
    }
    const live = this.worker();
    const request: CheckRequest = { url, snapshotId: taken.id, options, ...(live.snapshotId === taken.id ? {} : { snapshot: taken.snapshot }) };
    Atomics.store(live.signal, 0, WAITING);
    try {
      live.port.postMessage(request);
    } catch (error) {
      throw new Error(`the rule's input cannot be sent to its worker: ${(error as Error)?.message ?? String(error)}`);
    }
    live.snapshotId = taken.id;
    // The main thread blocks until the rule answers: Ctrl-C must end the run then, not after the deadline.
    const finished = whileSignalsCannotBeHandled(() => {
      if (!this.waitWhile(live, WAITING, SETUP_TIMEOUT_MS)) return 'setup';
      if (!this.waitWhile(live, CHECKING, timeoutMs)) return 'check';
      return 'done';
    });
    if (finished === 'setup') {
      this.stop();
      throw new RuleTimeout(`could not be loaded and given the environment within ${formatSeconds(SETUP_TIMEOUT_MS)} (its module's top-level code does not finish?); it was stopped`);
    }
    if (finished === 'check') {
      this.stop();
      throw new RuleTimeout(`did not finish within ${formatSeconds(timeoutMs)} (customRuleTimeout or --custom-rule-timeout); it was stopped`);
    }
    const message = receiveMessageOnPort(live.port);
    if (Atomics.load(live.signal, 0) === EXITED || !message) {
      this.stop();
      throw new Error('its worker thread exited without an answer (process.exit() in the rule?)');
    }
    this.idleLater(live);
    return { reply: message.message as CheckReply, resolve: taken.resolve };
  }

  /** Waits, without blocking the thread, while the signal holds `state`, at most `ms`; false when the time ran out. */
  private async waitAsyncWhile(live: LiveWorker, state: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Atomics.load(live.signal, 0) === state) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const waiting = waitAsync(live.signal, 0, state, left);
      if (waiting.async) await waiting.value;
    }
    return true;
  }

  /** Blocks while the signal holds `state`, at most `ms`; false when the time ran out. */
  private waitWhile(live: LiveWorker, state: number, ms: number): boolean {
    const deadline = Date.now() + ms;
    while (Atomics.load(live.signal, 0) === state) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(live.signal, 0, state, left);
    }
    return true;
  }

  private worker(): LiveWorker {
    if (this.live) {
      clearTimeout(this.live.idle);
      return this.live;
    }
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const channel = new MessageChannel();
    const worker = new Worker(new URL('./rule-worker.js', import.meta.url), {
      workerData: { port: channel.port2, signal, hooksUrl: new URL('./ts-hooks.js', import.meta.url).href, pvlintUrl: this.pvlintUrl, preloadTypescript: this.preloadTypescript },
      transferList: [channel.port2],
    });
    worker.unref();
    channel.port1.unref();
    // Errors outside check() (an uncaught one in a timer the rule set) end the worker; the next check starts another.
    worker.on('error', () => this.forget(worker));
    worker.on('exit', () => this.forget(worker));
    this.live = { worker, port: channel.port1, signal };
    return this.live;
  }

  private idleLater(live: LiveWorker): void {
    clearTimeout(live.idle);
    live.idle = setTimeout(() => {
      if (this.live === live) this.stop();
    }, IDLE_MS);
    live.idle.unref();
  }

  private forget(worker: Worker): void {
    if (this.live?.worker === worker) this.live = undefined;
  }

  /** Ends the worker (a rule that did not finish, or the end of the run). */
  stop(): void {
    const live = this.live;
    if (!live) return;
    this.live = undefined;
    clearTimeout(live.idle);
    live.port.close();
    void live.worker.terminate();
  }
}

/** Atomics.waitAsync (Node 16+; in the ES2024 library, newer than this project's). */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number, timeout: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/**
 * The messages of a proxy rule: the worker renders each report's message with the rule's own functions, and the
 * engine, rendering it from the proxy's meta.messages while the report is issued, is given that text.
 */
export class RenderedMessages {
  current = '';

  messages(ids: readonly string[]): Record<string, () => string> {
    return Object.fromEntries(ids.map((id) => [id, () => this.current]));
  }
}

/**
 * The check() of a proxy rule: the rule at `url` runs in the pool's worker and its reports are issued here. Kinds
 * the rule declares are read first, so a kind the pre-scan left unparsed is in the snapshot.
 */
export function isolatedCheck(pool: RuleWorkerPool, url: string, kinds: readonly string[], timeoutMs: number, rendered: RenderedMessages): (context: RuleContext) => void {
  return (context) => {
    const { model } = context;
    for (const kind of kinds) model.ofKind(kind);
    const { reply, resolve } = pool.check(url, model, context.options, timeoutMs);
    const resource = (ref: ResourceRef) => {
      const found = resolve(ref);
      if (!found) throw new Error('a report named a resource the scope does not hold (a bug in pvlint)');
      return found;
    };
    for (const r of reply.reports) {
      rendered.current = r.message;
      context.report({
        resource: resource(r.resource),
        path: r.path,
        messageId: r.messageId,
        data: r.data as any,
        ...(r.severity !== undefined ? { severity: r.severity } : {}),
        ...(r.fix !== undefined ? { fix: r.fix } : {}),
        ...(r.related ? { related: r.related.map((x) => ({ resource: resource(x.resource), path: x.path, message: x.message })) } : {}),
      });
    }
    if (reply.error) {
      const error = new Error(reply.error.message);
      if (reply.error.stack) error.stack = reply.error.stack;
      throw error;
    }
  };
}
