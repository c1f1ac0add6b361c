import type { CompileHookResult, SandboxPool } from './worker-pool.js';

export type { CompileHookResult } from './worker-pool.js';

/** The benchmark-dependent compile rule of the original: string literals naming numbered instances (a text world's). */
export interface CompileRules {
  numberedInstances?: boolean;
}

/**
 * The Python port keeps the original's `compile_hook(source, benchmark)` signature; its only
 * benchmark-dependent rule is the numbered-instance one, so the rule travels as the benchmark argument the
 * original gives it (the name below is the original's protocol value).
 */
export function originalBenchmarkArgument(rules: CompileRules | undefined): string | undefined {
  return rules?.numberedInstances ? 'alfworld' : undefined;
}

/**
 * The original's `compile_hook(source, benchmark)` (protocol.md §5.1), run by Python's own `ast` inside a
 * sandbox worker: size (8000 chars), AST nodes (1200 by `ast.walk`, Load/Store included), only top-level
 * defs with exactly one `hook(ctx, nb)` and at most 5 helpers, the forbidden names/attributes/node types,
 * try/except rules, 700-char string constants, and with `numberedInstances` the numbered-instance
 * rule on string literals; then compile and exec with the 25 safe builtins plus math, re and SequenceMatcher. Syntax newer
 * than Python 3.10 is rejected as such. The reason names the rule, e.g. "hook uses forbidden name 'getattr'".
 * `pythonVersion` records the CPython (Pyodide) version that judged the source.
 */
export function compileHook(pool: SandboxPool, source: string, rules?: CompileRules): Promise<CompileHookResult> {
  if (typeof source !== 'string') {
    return Promise.resolve({ ok: false, reason: 'hook code must be a non-empty string', pythonVersion: pool.info().pythonVersion ?? 'unknown' });
  }
  return pool.validate(source, originalBenchmarkArgument(rules));
}
