import type { HookName } from '../episode/index.js';
import type { EpisodeHooks, HookCallResult, HookProvider } from './hook-provider.js';

/** A trusted TypeScript hook: same contract as a Python hook body, `(ctx, nb) => result`. */
export type NativeHookFunction = (ctx: Record<string, unknown>, nb: Record<string, unknown>) => unknown;

export interface NativeHook {
  hook: HookName;
  fn: NativeHookFunction;
}

/**
 * Hooks written in TypeScript by the user (trusted code, no sandbox). Each episode gets a fresh `nb`;
 * ctx is deep-copied per call so a hook cannot change what the runtime or the next hook sees.
 * A throwing hook is recorded as an `exception` fault and has no effect, as in the original.
 */
export function createNativeHookProvider(hooks: readonly NativeHook[], label = 'native hooks'): HookProvider {
  return {
    label,
    async openEpisode(): Promise<EpisodeHooks> {
      const nb: Record<string, unknown> = {};
      return {
        count: (name) => hooks.filter((h) => h.hook === name).length,
        async call(name, ctx) {
          const results: HookCallResult[] = [];
          let hookIndex = 0;
          for (const h of hooks) {
            if (h.hook !== name) continue;
            try {
              results.push({ hookIndex, raw: await h.fn(structuredClone(ctx), nb) });
            } catch (error) {
              results.push({ hookIndex, fault: { kind: 'exception', message: (error as Error)?.message ?? String(error) } });
            }
            hookIndex++;
          }
          return results;
        },
        async close() {},
      };
    },
  };
}

/** A provider with no hooks: the baseline (no-harness) configuration. */
export const NO_HOOKS: HookProvider = createNativeHookProvider([], 'no hooks');
