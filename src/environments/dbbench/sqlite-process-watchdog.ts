import { Worker } from 'node:worker_threads';

/** The line a database process writes to stderr just before the watchdog kills it for its memory. */
export const MEMORY_KILL_MARK = 'harness-r1 sqlite watchdog: memory ceiling passed';

/** How often the watchdog samples resident memory while a statement runs. */
export const MEMORY_SAMPLE_MS = 10;
/** How often it checks that the parent process is still there. */
const PARENT_CHECK_MS = 500;

/**
 * The watchdog thread's code (plain JavaScript, so it needs no TypeScript loader). It runs beside the
 * thread that calls into SQLite and keeps working while that thread is stuck in a native call: it reads
 * the process's resident set size every {@link MEMORY_SAMPLE_MS} while the `busy` flag is set, and kills
 * the whole process with SIGKILL when it passes the ceiling (first writing {@link MEMORY_KILL_MARK} to
 * stderr, so the parent can tell why). It also kills the process once its parent has gone, so a
 * statement running when the harness itself died does not outlive it.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { limitBytes, parentPid, busy, mark, sampleMs, parentCheckMs } = workerData;
const flag = new Int32Array(busy);
let sinceParentCheck = 0;
function kill() { process.kill(process.pid, 'SIGKILL'); }
setInterval(() => {
  if (Atomics.load(flag, 0) === 1) {
    const rss = process.memoryUsage.rss();
    if (rss > limitBytes) {
      try { writeSync(2, '\\n' + mark + ' (' + Math.round(rss / 1048576) + ' MiB)\\n'); } catch {}
      kill();
    }
  }
  sinceParentCheck += sampleMs;
  if (sinceParentCheck >= parentCheckMs) {
    sinceParentCheck = 0;
    if (process.ppid !== parentPid) kill();
  }
}, sampleMs);
`;

/**
 * Starts the watchdog thread of a database process. Resolves once it runs, with the flag the caller sets
 * to 1 while a statement runs and back to 0 afterwards.
 */
export async function startWatchdog(memoryLimitBytes: number): Promise<Int32Array> {
  const busy = new SharedArrayBuffer(4);
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { limitBytes: memoryLimitBytes, parentPid: process.ppid, busy, mark: MEMORY_KILL_MARK, sampleMs: MEMORY_SAMPLE_MS, parentCheckMs: PARENT_CHECK_MS },
    // The thread itself must stay small: it only reads a counter and the RSS.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  // A dead watchdog would leave the process without a memory ceiling: end the process with it (unless
  // the process is already exiting, which ends the thread too).
  let exiting = false;
  process.once('exit', () => {
    exiting = true;
  });
  const die = (): void => {
    if (!exiting) process.kill(process.pid, 'SIGKILL');
  };
  worker.on('error', die);
  worker.on('exit', die);
  worker.unref();
  return new Int32Array(busy);
}
