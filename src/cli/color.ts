// Whether the text report is coloured, as the Node ecosystem decides it (Node's own tty.getColorDepth, chalk's
// supports-color): a flag wins over the environment; FORCE_COLOR overrides NO_COLOR (as in Node), and
// FORCE_COLOR=0 or false turns colour off; NO_COLOR set to a non-empty value turns it off (no-color.org);
// otherwise colour when stdout is a terminal.
export interface ColorInputs {
  color?: boolean;
  noColor?: boolean;
  env: Record<string, string | undefined>;
  isTTY: boolean;
}

export function wantColor({ color, noColor, env, isTTY }: ColorInputs): boolean {
  if (noColor) return false;
  if (color) return true;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY;
}
