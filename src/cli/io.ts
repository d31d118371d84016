// What the CLI needs from the outside world, so tests can run it without a process.
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input as text; past `maxBytes` only enough is kept to tell that it is larger. */
  readStdin: (maxBytes?: number) => Promise<string>;
  writeFile: (path: string, text: string) => Promise<void>;
}
