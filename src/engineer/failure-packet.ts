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
 * DBBench uses the evidence layout of `dbbench-evidence.ts`; WebShop and ALFWorld the markdown trace
 * packet of `trace-packet.ts`.
 */
import { ConfigError } from '../episode/index.js';
import type { Benchmark } from '../patch/index.js';
import { DBBENCH_EVIDENCE_FORMAT, DBBENCH_SANITIZE_MODE, renderDbBenchEvidence } from '../benchmarks/dbbench/engineer/dbbench-evidence.js';
import type { EngineerInput } from './engineer.js';
import { countExcluded, selectBatch, type BatchSelection } from './episode-evidence.js';
import {
  ALFWORLD_PACKET_LIMITS,
  DBBENCH_EVIDENCE_LIMITS,
  WEBSHOP_PACKET_LIMITS,
  type PacketLimitsByBench,
  type TracePacketLimits,
} from './packet-limits.js';
import type { SanitizeMode } from './sanitize-evidence.js';
import { renderTracePacket, TRACE_PACKET_SANITIZE_MODE, type TraceBench } from './trace-packet.js';

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
  bench: Benchmark;
  /** Names the layout, e.g. `dbbench-evidence-v1`. */
  format: string;
  text: string;
  stats: FailurePacketStats;
}

/** A benchmark's packet layout. */
export interface PacketRenderer<L> {
  readonly format: string;
  readonly defaultLimits: Readonly<L>;
  readonly sanitize: SanitizeMode;
  render(selection: BatchSelection, limits: L): { text: string; included: number; truncated: boolean };
}

/**
 * Thrown (at configuration time, before any model call) when a benchmark has no failure packet or
 * engineer prompt. It is a ConfigError, so the CLI reports it as a usage error naming what exists. Every
 * benchmark of the project has both now; the class stays for benchmarks added later.
 */
export class EngineerFormatUnavailableError extends ConfigError {
  readonly bench: Benchmark;
  readonly part: 'failure packet' | 'engineer prompt';
  readonly reason = 'not_yet_implemented' as const;
  constructor(bench: Benchmark, part: 'failure packet' | 'engineer prompt' = 'failure packet') {
    super({
      message: `There is no ${bench} ${part} yet.`,
      field: 'bench',
      allowed: AVAILABLE_ENGINEER_BENCHES,
    });
    this.bench = bench;
    this.part = part;
  }
}

const dbbenchRenderer: PacketRenderer<PacketLimitsByBench['dbbench']> = {
  format: DBBENCH_EVIDENCE_FORMAT,
  defaultLimits: DBBENCH_EVIDENCE_LIMITS,
  sanitize: DBBENCH_SANITIZE_MODE,
  render: (selection, limits) => renderDbBenchEvidence(selection, limits, DBBENCH_SANITIZE_MODE),
};

/** WebShop and ALFWorld share the markdown "Direct Failure Trace Packet" (`trace-packet.ts`). */
function tracePacketRenderer(bench: TraceBench, defaultLimits: Readonly<TracePacketLimits>): PacketRenderer<TracePacketLimits> {
  return {
    format: `${bench}-trace-packet-v1`,
    defaultLimits,
    sanitize: TRACE_PACKET_SANITIZE_MODE,
    render: (selection, limits) => renderTracePacket(bench, selection, limits),
  };
}

export const PACKET_RENDERERS: { readonly [B in Benchmark]: PacketRenderer<PacketLimitsByBench[B]> } = {
  dbbench: dbbenchRenderer,
  webshop: tracePacketRenderer('webshop', WEBSHOP_PACKET_LIMITS),
  alfworld: tracePacketRenderer('alfworld', ALFWORLD_PACKET_LIMITS),
};

export const AVAILABLE_ENGINEER_BENCHES: readonly Benchmark[] = ['dbbench', 'webshop', 'alfworld'];

/** True when the benchmark has a failure packet and an engineer prompt (all three do now). */
export function hasPacketFormat(bench: Benchmark): boolean {
  return AVAILABLE_ENGINEER_BENCHES.includes(bench);
}

export interface BuildFailurePacketOptions<B extends Benchmark = Benchmark> {
  /** Overrides of the benchmark's budgets (tests, experiments). Defaults are the original's. */
  limits?: Partial<PacketLimitsByBench[B]>;
}

/** Builds the packet of one batch with the benchmark's renderer and budgets. */
export function buildFailurePacket<B extends Benchmark>(input: EngineerInput & { bench: B }, options: BuildFailurePacketOptions<B> = {}): FailurePacket {
  const renderer = PACKET_RENDERERS[input.bench] as PacketRenderer<PacketLimitsByBench[B]>;
  if (!hasPacketFormat(input.bench)) throw new EngineerFormatUnavailableError(input.bench);
  const selection = selectBatch(input);
  const limits = { ...renderer.defaultLimits, ...options.limits } as PacketLimitsByBench[B];
  const rendered = renderer.render(selection, limits);
  return {
    bench: input.bench,
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
