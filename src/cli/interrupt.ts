/**
 * SIGINT and SIGTERM for the commands that play episodes: the first signal stops scheduling new work (the
 * episodes in flight finish and are stored, stores and databases are closed by the command's own cleanup),
 * a second one quits at once. Exit code 130 either way.
 */
export const EXIT_INTERRUPTED = 130;

export function onInterrupt(controller: AbortController): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    process.stderr.write(`\n${signal === 'SIGTERM' ? 'Terminated' : 'Interrupted'}: finishing the episodes in flight and storing them (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C'} again to quit now)…\n`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** The command line that continues a run: this one, with `--run-dir DIR` (and `--resume` for `run`). */
export function resumeCommand(dir: string, options: { resumeFlag: boolean }, argv: readonly string[] = process.argv.slice(2)): string {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--run-dir') {
      i++;
      continue;
    }
    if (arg.startsWith('--run-dir=') || arg === '--new' || arg === '--resume') continue;
    args.push(arg);
  }
  args.push('--run-dir', dir);
  if (options.resumeFlag) args.push('--resume');
  return `harness-r1 ${args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ')}`;
}
