/**
 * The failure packet: the deterministic evidence text an engineer reads about one batch (protocol.md
 * §2.4–2.6). One generic builder selects the episodes (infrastructure failures excluded, failures below
 * the pass threshold) and hands them to the benchmark's renderer with its budgets.
 *
 * Guarantees:
 * - built only from each episode's messages, outcome, reward, rounds and task index, never from
 *   `detail` (grader verdicts quoting labels), `steps` or `hookTrace` (see `episode-evidence.ts`);
 * - infrastructure-failed episodes (model_error, env_error, hook_fault) are not target failures: they
 *   are left out and counted in the header;
 * - the same episodes give the same packet, byte for byte, whatever order they come in.
 *
 * Each benchmark brings its renderer (`EngineerBenchmark.packet`): the SQL benchmark its evidence layout, the
 * trace benchmarks the markdown trace packet of `trace-packet.ts`, which any benchmark may reuse.
 */
import type { PacketLimits } from './engineer.js';
import type { EngineerInput } from './engineer.js';
import { countExcluded, selectBatch } from './episode-evidence.js';

export type { PacketRenderer } from './engineer.js';

export interface FailurePacketStats {
  tasks: number;
  scored: number;
  passed: number;
  /** Scored episodes below the pass threshold (with messages). */
  failures: number;
  /** Failure traces present in the text. */
  included: number;
  /** Infrastructure-failed episodes left out, per outcome. */
  excluded: { total: number; byOutcome: Record<string, number> };
  /** Batch tasks without any episode. */
  missing: number;
  /** The total budget cut the text. */
  truncated: boolean;
  chars: number;
}

export interface FailurePacket {
  /** The benchmark's name. */
  bench: string;
  /** Names the layout, e.g. `<bench>-evidence-v1`. */
  format: string;
  text: string;
  stats: FailurePacketStats;
}

export interface BuildFailurePacketOptions {
  /** Overrides of the benchmark's budgets (tests, experiments); unknown keys are ignored. Defaults are the original's. */
  limits?: Partial<PacketLimits>;
}

/** Builds the packet of one batch with its benchmark's renderer and budgets. */
export function buildFailurePacket(input: EngineerInput, options: BuildFailurePacketOptions = {}): FailurePacket {
  const renderer = input.benchmark.packet;
  const selection = selectBatch(input);
  const limits = mergeLimits(renderer.defaultLimits, options.limits);
  const rendered = renderer.render(selection, limits);
  return {
    bench: input.benchmark.name,
    format: renderer.format,
    text: rendered.text,
    stats: {
      tasks: selection.taskIndices.length,
      scored: selection.scored.length,
      passed: selection.passed.length,
      failures: selection.failures.length,
      included: rendered.included,
      excluded: { total: selection.excluded.length, byOutcome: Object.fromEntries(countExcluded(selection.excluded)) },
      missing: selection.missing.length,
      truncated: rendered.truncated,
      chars: rendered.text.length,
    },
  };
}

/** The defaults with the overrides of known keys applied. */
function mergeLimits(defaults: PacketLimits, overrides: Partial<PacketLimits> | undefined): PacketLimits {
  const merged: Record<string, number> = { ...defaults };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (Object.hasOwn(defaults, key) && typeof value === 'number') merged[key] = value;
  }
  return merged;
}

