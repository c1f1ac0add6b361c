import { ConfigError, HOOK_NAMES, isHookName, type HookName } from '../episode/index.js';
import type { EpisodeHooks, HookProvider } from './hook-provider.js';

/**
 * The lifecycle positions named in `--disable-hooks on_init,make_pre_hint,…`, in the protocol's call order
 * and each once. An unknown name is a usage error that lists the allowed values; an empty list is refused
 * (say nothing to disable nothing).
 */
export function parseDisabledHooks(value: string | readonly string[], field = 'disableHooks'): HookName[] {
  const names = (typeof value === 'string' ? value.split(',') : [...value]).map((n) => n.trim()).filter((n) => n !== '');
  const unknown = names.filter((n) => !isHookName(n));
  if (unknown.length > 0) {
    throw new ConfigError({
      message: `Unknown lifecycle position(s) for --disable-hooks: ${unknown.join(', ')}.`,
      field,
      allowed: [...HOOK_NAMES],
    });
  }
  if (names.length === 0) throw new ConfigError({ message: '--disable-hooks needs at least one lifecycle position.', field, allowed: [...HOOK_NAMES] });
  return HOOK_NAMES.filter((n) => names.includes(n));
}

/**
 * The same hooks with every hook at the disabled positions switched off: those are never called, so they
 * leave no trace entry, no fault and no effect, and the notebook sees only the hooks still enabled. With
 * nothing disabled the provider is returned as it is.
 */
export function withDisabledHooks<P extends HookProvider>(provider: P, disabled: readonly HookName[]): P | HookProvider {
  if (disabled.length === 0) return provider;
  const off = new Set<HookName>(disabled);
  return {
    label: `${provider.label} (disabled: ${disabled.join(', ')})`,
    async openEpisode(): Promise<EpisodeHooks> {
      const inner = await provider.openEpisode();
      return {
        count: (name) => (off.has(name) ? 0 : inner.count(name)),
        call: async (name, ctx) => (off.has(name) ? [] : inner.call(name, ctx)),
        close: () => inner.close(),
      };
    },
  };
}
