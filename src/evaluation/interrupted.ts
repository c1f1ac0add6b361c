import { HarnessError } from '../episode/index.js';

/**
 * The user stopped a command (SIGINT, SIGTERM): what was in flight finished and is stored, nothing was
 * decided from partial results, and the message says how to continue. The CLI exits 130.
 */
export class Interrupted extends HarnessError {
  readonly code = 'interrupted' as const;
}

/** Throws {@link Interrupted} when the signal fired; `where` says what was stopped. */
export function throwIfInterrupted(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted) throw new Interrupted({ message: `interrupted ${where}` });
}
