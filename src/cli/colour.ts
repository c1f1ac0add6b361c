/**
 * Whether the CLI may colour what it writes to a stream: only on a terminal, never when `NO_COLOR` is set
 * (https://no-color.org: any non-empty value) or `TERM=dumb`; `FORCE_COLOR` (non-empty, not "0") turns it on
 * for a pipe. Tables and progress bars ask this instead of their libraries' own guesses, which colour
 * pipes when a `CI` variable is set.
 */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (nonEmpty(env.NO_COLOR)) return false;
  if (nonEmpty(env.FORCE_COLOR)) return env.FORCE_COLOR !== '0';
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** cli-table3 style options: its grey borders and red headers only where colour is allowed. */
export function tableStyle(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): { head: string[]; border: string[] } {
  return colourEnabled(stream, env) ? { head: [], border: ['grey'] } : { head: [], border: [] };
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}
