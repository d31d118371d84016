// What an interrupted run must not leave behind: renderer process groups (kubectl kustomize, helm and what they
// started) and temporary directories. Everything that starts one registers it here for as long as it lives; the
// executable (bin.ts) calls `stopOnSignals()` so Ctrl-C or SIGTERM stops and removes them before pvlint exits.
// The API installs no handler: a program embedding lint() owns its signals, and may call `stopEverything()`.
import { rmSync } from 'node:fs';

const processGroups = new Set<number>();
const temporaryDirectories = new Set<string>();

export function trackProcessGroup(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  processGroups.add(pid);
  return () => processGroups.delete(pid);
}

export function trackTemporaryDirectory(dir: string): () => void {
  temporaryDirectories.add(dir);
  return () => temporaryDirectories.delete(dir);
}

/** Kills every live renderer's process group and removes every temporary directory, synchronously. */
export function stopEverything(): void {
  for (const pid of processGroups) {
    try {
      process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  processGroups.clear();
  for (const dir of temporaryDirectories) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Nothing more to do on the way out.
    }
  }
  temporaryDirectories.clear();
}

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
type HandledSignal = keyof typeof SIGNAL_NUMBERS;

/** The handlers stopOnSignals() installed (none in a program that embeds lint()). */
const handlers = new Map<HandledSignal, () => void>();

/** On SIGINT, SIGTERM or SIGHUP: stop everything, then exit as a process killed by that signal would (128 + n). */
export function stopOnSignals(): void {
  for (const [signal, number] of Object.entries(SIGNAL_NUMBERS) as [HandledSignal, number][]) {
    const handler = () => {
      stopEverything();
      process.exit(128 + number);
    };
    handlers.set(signal, handler);
    process.once(signal, handler);
  }
}

/**
 * Runs `block`, which holds the main thread (a synchronous wait for a custom rule's worker), so no signal handler
 * can run until it returns. When nothing is left to clean up, the handlers are set aside for that time: the signal
 * then takes its default action and ends the process at once (with its threads), which a shell reports as the
 * same 128 + n. While a renderer or a temporary directory is alive the handlers stay, and a signal is handled
 * when `block` returns.
 */
export function whileSignalsCannotBeHandled<T>(block: () => T): T {
  if (handlers.size === 0 || processGroups.size > 0 || temporaryDirectories.size > 0) return block();
  const setAside = [...handlers].filter(([signal, handler]) => process.listeners(signal).includes(handler));
  for (const [signal, handler] of setAside) process.removeListener(signal, handler);
  try {
    return block();
  } finally {
    for (const [signal, handler] of setAside) process.once(signal, handler);
  }
}

export function untrackTemporaryDirectory(dir: string): void {
  temporaryDirectories.delete(dir);
}
