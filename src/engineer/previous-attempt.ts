import type { EpisodeRecord } from '../episode/index.js';

/** What the first pass produced and how its rerun went. */
export interface PreviousAttempt {
  /** Pass counts over the batch's scored tasks, baseline (stored) and patched (rerun). */
  result: {
    tasks: number;
    baselinePass: number;
    patchedPass: number;
    /** Mean-reward delta (patched − baseline), when known. */
    delta?: number;
    /** How the previous attempt was scored, e.g. `valid`, `invalid_patch_treated_as_no_patch`. */
    status?: string;
    /** Mean rewards over the scored tasks, baseline (stored) and patched (rerun); shown by the trace revision context only. */
    baselineMean?: number;
    patchedMean?: number;
  };
  /** Task indices that went correct → wrong and wrong → correct under the previous patch. */
  flips: { correctToWrong: number[]; wrongToCorrect: number[] };
  /** The previous engineer text, as returned (reassembled). */
  rawOutput: string;
  /** The previous patch: its JSON text, or the parsed object. */
  patch: unknown;
  /** Patched-run episodes of tasks that went correct → wrong. */
  regressions?: EpisodeRecord[];
  /** Patched-run episodes of tasks that went wrong → correct. */
  improvements?: EpisodeRecord[];
  /**
   * Patched-run episodes of tasks that failed without the patch and still fail with it. Only the
   * trace revision context (`trace-revision-context.ts`) shows them; the SQL benchmark's section ignores them.
   */
  stillFailing?: EpisodeRecord[];
}
