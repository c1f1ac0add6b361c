import type { HookName } from '../episode/index.js';

/**
 * Why one hook call produced nothing: the hook failed, not the episode. `disabled`: the hook was switched
 * off for the rest of the episode (its calls kept costing the sandbox a worker), so this call did not run.
 */
export interface HookFault {
  kind: 'timeout' | 'line_budget' | 'exception' | 'memory' | 'worker_crash' | 'bad_result' | 'compile' | 'disabled';
  message: string;
}

/** What one installed hook returned for one call, before normalization. */
export type HookCallResult =
  | { hookIndex: number; raw: unknown }
  | { hookIndex: number; fault: HookFault };

/**
 * The hooks installed for one episode. It owns the episode's notebook (`nb`), which lives as long as the
 * episode and is shared by every hook. `call` runs every installed hook with that name, in patch order.
 */
export interface EpisodeHooks {
  count(hook: HookName): number;
  call(hook: HookName, ctx: Record<string, unknown>): Promise<HookCallResult[]>;
  close(): Promise<void>;
}

/** A source of hooks (native TypeScript functions, or a sandboxed Python patch) that opens per episode. */
export interface HookProvider {
  readonly label: string;
  openEpisode(): Promise<EpisodeHooks>;
}
