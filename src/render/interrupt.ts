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

/** On SIGINT, SIGTERM or SIGHUP: stop everything, then exit as a process killed by that signal would (128 + n). */
export function stopOnSignals(): void {
  for (const [signal, number] of Object.entries(SIGNAL_NUMBERS)) {
    process.once(signal as NodeJS.Signals, () => {
      stopEverything();
      process.exit(128 + number);
    });
  }
}

export function untrackTemporaryDirectory(dir: string): void {
  temporaryDirectories.delete(dir);
}
