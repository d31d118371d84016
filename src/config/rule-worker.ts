// The worker thread custom rules are loaded and run in (isolated-rule.ts): it imports each rule file (with the
// module hooks: types erased, `import ... from 'pvlint'` resolved to this pvlint) and sends back the rule's id and
// metadata as data, so a module whose top-level code never finishes is stopped like a check that never returns;
// it rebuilds the scope's StorageModel from the plain-data snapshot it is sent, runs `check()` and sends the
// reports back, each naming its resource by reference and with its message rendered here. The main thread waits
// for the reply on `signal`; a load or check that never finishes is ended by terminating this thread.
import * as nodeModule from 'node:module';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { StorageModel } from '../model/storage-model.js';
import type { ReportDescriptor } from '../types.js';
import { modelFromSnapshot, type ModelSnapshot, type ResourceRef } from './rule-snapshot.js';
import { ruleData, shapeProblem, type RuleData } from './rule-shape.js';

/** Import the rule module at `url` and answer with a LoadReply. */
export interface LoadRequest {
  load: string;
}

export interface LoadReply {
  rule?: RuleData;
  /** The default export is not a rule: why. */
  shape?: string;
  /** The module could not be imported, or its metadata cannot be sent: the error's message and stack. */
  error?: { message: string; stack?: string };
}

export interface CheckRequest {
  /** The rule module's URL, with the custom-rule query the hooks look for. */
  url: string;
  /** Identifies the snapshot; `snapshot` is sent only when this worker has not seen the id yet. */
  snapshotId: number;
  snapshot?: ModelSnapshot;
  options: unknown;
}

export interface ReportData {
  resource: ResourceRef;
  path: ReportDescriptor['path'];
  messageId: string;
  /** The message, rendered by the rule's meta.messages here (the main thread holds no rule code). */
  message: string;
  data: unknown;
  severity?: ReportDescriptor['severity'];
  fix?: string;
  related?: { resource: ResourceRef; path: ReportDescriptor['path']; message: string }[];
}

export interface CheckReply {
  reports: ReportData[];
  /** check() threw (or the rule could not be loaded or run): its message and the stack to find the rule's line in. */
  error?: { message: string; stack?: string };
}

/** Values of the signal word: the main thread waits while it is WAITING. */
export const WAITING = 0;
export const REPLIED = 1;
export const EXITED = 2;
/**
 * The rule's own code runs now, and so does its deadline: check() (the rule is loaded and the model built), or the
 * module's import (the worker has started and its hooks are ready).
 */
export const CHECKING = 3;

interface WorkerInput {
  port: MessagePort;
  signal: Int32Array;
  hooksUrl: string;
  pvlintUrl: string;
  /** Load the TypeScript parser while the worker starts: some rule files are TypeScript. */
  preloadTypescript: boolean;
}

const input = workerData as WorkerInput | undefined;
if (input?.port) serve(input);

function serve({ port, signal, hooksUrl, pvlintUrl, preloadTypescript }: WorkerInput): void {
  (nodeModule as { register?: typeof nodeModule.register }).register?.(hooksUrl, { data: { pvlintUrl, preloadTypescript } });
  const modules = new Map<string, Promise<any>>();
  let current: { id: number; model: StorageModel; refer: (resource: unknown) => ResourceRef | undefined } | undefined;
  const answer = (reply: CheckReply) => {
    try {
      port.postMessage(reply);
    } catch (error) {
      // Reported data that cannot be copied (a function, a class instance with private state).
      port.postMessage({ reports: [], error: { message: `a report holds data that cannot be sent back: ${(error as Error)?.message ?? String(error)}` } } satisfies CheckReply);
    }
    Atomics.store(signal, 0, REPLIED);
    Atomics.notify(signal, 0);
  };
  // A rule that calls process.exit() ends this thread: the main thread must not wait for a reply that never comes.
  process.on('exit', () => {
    Atomics.store(signal, 0, EXITED);
    Atomics.notify(signal, 0);
  });
  const ruleAt = async (url: string) => {
    if (!modules.has(url)) modules.set(url, import(url));
    return (await modules.get(url))?.default;
  };
  // pvlint itself, which `import ... from 'pvlint'` in a rule module loads: pvlint's time, not the rule's.
  let pvlint: Promise<unknown> | undefined;
  const load = async (url: string) => {
    let reply: LoadReply;
    await (pvlint ??= import(pvlintUrl).catch(() => undefined));
    Atomics.store(signal, 0, CHECKING);
    Atomics.notify(signal, 0);
    try {
      const rule = await ruleAt(url);
      const shape = shapeProblem(rule);
      reply = shape ? { shape } : { rule: ruleData(rule) };
    } catch (error) {
      reply = { error: errorData(error) };
    }
    try {
      port.postMessage(reply);
    } catch (error) {
      port.postMessage({ error: { message: `the rule's metadata cannot be sent to pvlint (meta must hold plain data and message functions): ${(error as Error)?.message ?? String(error)}` } } satisfies LoadReply);
    }
    Atomics.store(signal, 0, REPLIED);
    Atomics.notify(signal, 0);
  };
  port.on('message', async (request: CheckRequest | LoadRequest) => {
    if ('load' in request) return load(request.load);
    const reports: ReportData[] = [];
    try {
      const rule = await ruleAt(request.url);
      if (request.snapshot) current = { id: request.snapshotId, ...modelFromSnapshot(request.snapshot) };
      if (!current || current.id !== request.snapshotId) throw new Error('the worker lost the scope it was sent (a bug in pvlint)');
      const { model, refer } = current;
      const reference = (resource: unknown): ResourceRef => {
        const ref = refer(resource);
        if (ref === undefined) throw new Error('report() was given a resource that is not one of context.model\'s resources');
        return ref;
      };
      Atomics.store(signal, 0, CHECKING);
      Atomics.notify(signal, 0);
      const report = (descriptor: ReportDescriptor) => {
        const render = rule.meta.messages[descriptor.messageId as string];
        if (typeof render !== 'function') throw new Error(`unknown messageId ${String(descriptor.messageId)}`);
        reports.push({
          resource: reference(descriptor.resource),
          path: descriptor.path,
          messageId: String(descriptor.messageId),
          message: render(descriptor.data),
          data: descriptor.data,
          ...(descriptor.severity !== undefined ? { severity: descriptor.severity } : {}),
          ...(descriptor.fix !== undefined ? { fix: descriptor.fix } : {}),
          ...(descriptor.related ? { related: descriptor.related.map((r) => ({ resource: reference(r.resource), path: r.path, message: r.message })) } : {}),
        });
      };
      const returned: unknown = rule.check({ model, options: request.options, report });
      if (returned !== null && typeof returned === 'object' && typeof (returned as PromiseLike<unknown>).then === 'function') {
        (returned as Promise<unknown>).then(undefined, () => undefined);
        throw new Error('check() returned a Promise: custom rules must report synchronously (async check() is not supported; read what you need from context.model)');
      }
      answer({ reports });
    } catch (error) {
      answer({ reports, error: errorData(error) });
    }
  });
}

function errorData(error: unknown): { message: string; stack?: string } {
  const message = error instanceof Error ? error.message : String(error);
  return { message, ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) };
}
