import { ConfigError } from '../../episode/index.js';
import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import type { Engineer } from '../../engineer/engineer.js';
import type { OpenedBench, OpenedTarget } from '../../experiments/shared/open-cells.js';
import { flagOf } from '../../app/options.js';
import { checkSpecs } from '../../app/check-specs.js';
import { resolveEngineer } from '../../app/resolve-engineer.js';
import { benchmarkOf, type CliContext } from '../cli-context.js';
import { resolveDataDir } from '../../config/data-dir.js';
import { experimentDir, openExperiment } from './experiment-setup.js';
import type { StrategyName } from '../../runtime/strategies/index.js';

/** `sim:any[?…]` stands for the simulated target of each benchmark a multi-benchmark experiment plays. */
export const ANY_SIM = 'sim:any';

/** The SPEC a target plays `bench` with: `sim:any?seed=1` becomes `sim:<bench>?seed=1`; others are unchanged. */
export function specForBench(spec: string, bench: string): string {
  if (spec === ANY_SIM || spec.startsWith(`${ANY_SIM}?`)) return `sim:${bench}${spec.slice(ANY_SIM.length)}`;
  return spec;
}

/** The heading of a benchmark's columns in the paper's tables (its definition's, or its title's). */
export function paperColumnsOf(definition: AnyBenchmarkDefinition): { success: string; score?: string } {
  return { success: definition.paperColumns?.success ?? `${definition.title} Succ.`, score: definition.paperColumns?.score ?? `${definition.title} Score` };
}

/**
 * The benchmark options each benchmark of a multi-benchmark experiment gets: the flags it owns. A flag
 * no chosen benchmark owns is a usage error.
 */
export async function benchOptionsPer(ctx: CliContext, benches: readonly string[], received: Record<string, unknown>): Promise<Map<string, Record<string, unknown>>> {
  const definitions = await Promise.all(benches.map((b) => benchmarkOf(ctx, b)));
  const given = Object.entries(received).filter(([, v]) => v !== undefined);
  for (const [key] of given) {
    if (!definitions.some((d) => d.options.flags.some((f) => f.key === key))) {
      throw new ConfigError({ message: `${flagOf(key)} applies to none of ${benches.join(', ')}.`, field: key });
    }
  }
  return new Map(definitions.map((d, i) => [benches[i]!, Object.fromEntries(given.filter(([k]) => d.options.flags.some((f) => f.key === k)))]));
}

/** What a multi-target command passes through to `openExperiment`. */
export interface CellCommandOptions {
  split?: string | undefined;
  tasks?: string | undefined;
  dataDir?: string | undefined;
  maxRounds?: number | undefined;
  protocol?: string | undefined;
  concurrency: number;
  hookTimeoutMs?: number | undefined;
  /** The baseline target strategy every target plays its baseline and reruns with (transfer); absent: the plain target. */
  strategy?: StrategyName | undefined;
}

/**
 * Opens one benchmark with every target (one sandbox pool and one engineer for all of them), as
 * `improve` opens one: the first target through `openExperiment`, the others beside it.
 */
export async function openBenchWithTargets(
  ctx: CliContext, o: CellCommandOptions, bench: string, targets: readonly string[], benchReceived: Record<string, unknown>, engineer: string | Engineer, rootDir: string, log: (line: string) => void,
): Promise<OpenedBench> {
  const setup = await openExperiment(ctx, { ...o, bench, target: specForBench(targets[0]!, bench) }, benchReceived,
    async (_definition, dataDir) => (typeof engineer === 'string' ? resolveEngineer(engineer, { dataDir }) : { engineer, close: async () => {} }), rootDir, log);
  try {
    const opened: OpenedTarget[] = [{ spec: targets[0]!, context: setup.context, identity: setup.baselineIdentity }];
    for (const spec of targets.slice(1)) {
      const played = specForBench(spec, bench);
      const other = await setup.openTarget(played);
      opened.push({ spec, context: { ...setup.context, target: other.model, rerunContext: { ...setup.context.rerunContext, target: played } }, identity: other.identity });
    }
    return { name: setup.definition.name, split: setup.split, columns: paperColumnsOf(setup.definition), taskIndices: setup.taskIndices, environment: setup.baselineEnvironment, targets: opened, close: () => setup.close() };
  } catch (error) {
    await setup.close();
    throw error;
  }
}

/** A benchmark opened with every target and every engineer of a multi-target experiment (engineers in SPEC order). */
export type OpenedBenchWithEngineers = OpenedBench & { engineers: Engineer[] };

/** What a multi-target experiment command sets up before its protocol runs. */
export interface MatrixSetup {
  /** The benchmark options each benchmark gets (the flags it owns). */
  perBench: Map<string, Record<string, unknown>>;
  /** The experiment's run directory. */
  root: string;
  /** Opens one benchmark with every target and every engineer; `close` releases all of it. */
  openBench(bench: string): Promise<OpenedBenchWithEngineers>;
}

/**
 * The setup `experiment main` and `experiment transfer` share: the benchmark options per benchmark, the
 * run directory `runs/<kind>-<benches>-<split>-<time>` (or `--out`), and the opening of a benchmark with
 * every target, the first engineer through `openExperiment` and the others beside it.
 */
export async function openMatrix(
  ctx: CliContext, o: CellCommandOptions & { out?: string | undefined }, kind: string, benches: readonly string[], benchReceived: Record<string, unknown>, targets: readonly string[], engineers: readonly string[],
): Promise<MatrixSetup> {
  const perBench = await benchOptionsPer(ctx, benches, benchReceived);
  // Every target on every benchmark it plays, and every engineer, before the run directory is made.
  const names = await Promise.all(benches.map(async (b) => (await benchmarkOf(ctx, b)).name));
  checkSpecs(ctx.registry, names.map((name) => ({ bench: name, targets: targets.map((t) => specForBench(t, name)) })), engineers);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const root = experimentDir(kind, benches.join('+'), o.split, o.out);
  const openBench = async (name: string): Promise<OpenedBenchWithEngineers> => {
    const opened = await openBenchWithTargets(ctx, o, name, targets, perBench.get(name)!, engineers[0]!, root, log);
    const others: Awaited<ReturnType<typeof resolveEngineer>>[] = [];
    try {
      for (const spec of engineers.slice(1)) others.push(await resolveEngineer(spec, { dataDir: resolveDataDir(o.dataDir) }));
    } catch (error) {
      for (const e of others) await e.close();
      await opened.close();
      throw error;
    }
    return {
      ...opened,
      engineers: [opened.targets[0]!.context.engineer, ...others.map((e) => e.engineer)],
      close: async () => {
        for (const e of others) await e.close();
        await opened.close();
      },
    };
  };
  return { perBench, root, openBench };
}
