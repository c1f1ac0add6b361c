import type { Command } from 'commander';

import { ConfigError } from '../../episode/index.js';
import {
  PATCH_FILE_PROTOCOLS,
  describeRejection,
  formatOriginalRepr,
  noPatchStatus,
  validatePatchFile,
  type PatchRulesLookup,
  type HookCompiler,
  type PatchFileProtocol,
  type PatchVerdict,
} from '../../patch/index.js';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.js';

import type { CompilerHandle } from '../../app/sandbox-compiler.js';

export type { CompilerHandle };

export interface ValidateCommandDeps {
  /** The benchmarks a patch may name, with their rules (the registry's lookup). */
  benchmarks: PatchRulesLookup;
  /** Names for messages. */
  benchmarkNames: readonly string[];
  /** Turns a `--bench` value into a benchmark name (a module path names the benchmark it defines); default: as given. */
  resolveBench?: (value: string) => Promise<string>;
  /** Opens the hook compiler; called only when the patch has a code hook to compile. */
  openCompiler?: () => Promise<CompilerHandle>;
}

export interface ValidateCommandOptions {
  bench?: string;
  protocol?: string;
  strict?: boolean;
  codeHookOnly?: boolean;
  rejectRuntimeNoop?: boolean;
  json?: boolean;
}

/** Until the sandbox is wired in, code hooks cannot be compiled: say so as a usage error (exit 2). */
async function missingCompiler(): Promise<CompilerHandle> {
  throw new ConfigError({
    message: 'No hook compiler is configured, so add_code_hook actions cannot be validated (register the validate command with openCompiler).',
    field: 'compiler',
  });
}

/** Validates one patch file or engineer response. Exit 0 valid, 1 invalid; usage errors throw `ConfigError` (exit 2). */
export async function validateCommand(
  file: string,
  o: ValidateCommandOptions,
  deps: ValidateCommandDeps,
  out: Pick<NodeJS.WriteStream, 'write'> = process.stdout,
): Promise<number> {
  const given = o.bench === undefined || deps.resolveBench === undefined ? o.bench : await deps.resolveBench(o.bench);
  const bench = given === undefined ? undefined : given.toLowerCase();
  if (bench !== undefined && !deps.benchmarks(bench)) {
    throw new ConfigError({ message: `Unknown --bench '${o.bench}'.`, field: 'bench', allowed: deps.benchmarkNames });
  }
  const protocol = o.protocol ?? 'patch';
  if (!(PATCH_FILE_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError({ message: `Unknown --protocol '${protocol}'.`, field: 'protocol', allowed: PATCH_FILE_PROTOCOLS });
  }
  const open = deps.openCompiler ?? missingCompiler;
  let handle: Promise<CompilerHandle> | undefined;
  let usageError: ConfigError | undefined;
  const compiler: HookCompiler = async (source, rules) => {
    handle ??= open();
    try {
      return await (await handle).compiler(source, rules);
    } catch (error) {
      // Failing to open the compiler is a usage error, not a patch rejection.
      if (error instanceof ConfigError) usageError = error;
      throw error;
    }
  };
  let verdict: PatchVerdict;
  try {
    verdict = await validatePatchFile(file, {
      bench,
      benchmarks: deps.benchmarks,
      protocol: protocol as PatchFileProtocol,
      compiler,
      codeHookOnly: o.codeHookOnly ?? false,
      rejectRuntimeNoop: o.rejectRuntimeNoop ?? false,
      strict: o.strict ?? false,
    });
  } finally {
    const opened = handle ? await handle.catch(() => undefined) : undefined;
    await opened?.close();
  }
  if (usageError) throw usageError;
  out.write(o.json ? `${JSON.stringify(toJsonReport(file, protocol, bench, o, verdict), null, 2)}\n` : formatVerdict(file, verdict));
  return verdict.kind === 'valid' ? EXIT_OK : EXIT_FAILED;
}

function formatVerdict(file: string, verdict: PatchVerdict): string {
  const lines: string[] = [];
  if (verdict.kind === 'valid') {
    const { patch } = verdict;
    const kinds = patch.actions.map((a) => (a.type === 'add_code_hook' ? a.hook : a.type));
    lines.push(`VALID ${file}`, `  ${patch.benchmark} patch, ${patch.actions.length} action(s): ${kinds.join(', ')}`);
  } else {
    const { rejection } = verdict;
    lines.push(
      `INVALID ${file}`,
      `  reason: ${describeRejection(rejection)}`,
      `  original: ${formatOriginalRepr(rejection)}`,
      `  status: ${noPatchStatus(rejection)}`,
    );
  }
  for (const note of verdict.notes) lines.push(`  note (${note.kind}) ${note.field}: ${note.message}`);
  return `${lines.join('\n')}\n`;
}

function toJsonReport(file: string, protocol: string, bench: string | undefined, o: ValidateCommandOptions, verdict: PatchVerdict) {
  const base = {
    file,
    protocol,
    bench: bench ?? null,
    strict: o.strict ?? false,
    codeHookOnly: o.codeHookOnly ?? false,
    rejectRuntimeNoop: o.rejectRuntimeNoop ?? false,
    verdict: verdict.kind,
    notes: verdict.notes,
  };
  if (verdict.kind === 'valid') return { ...base, patch: verdict.patch };
  return {
    ...base,
    rejection: {
      ...verdict.rejection,
      reason: describeRejection(verdict.rejection),
      original: formatOriginalRepr(verdict.rejection),
      status: noPatchStatus(verdict.rejection),
    },
  };
}

export function registerValidateCommand(program: Command, deps: ValidateCommandDeps): void {
  program
    .command('validate')
    .description('Validate a Harness-R1 patch (or an engineer response) exactly as the original validator does.')
    .argument('<patch>', 'a patch JSON file, or an engineer response with --protocol')
    .option('--bench <bench>', `the caller's benchmark (${deps.benchmarkNames.join(', ')}, or the path of a benchmark module); the patch's own "benchmark" wins`)
    .option('--protocol <protocol>', `patch (default) or how to read a response: ${PATCH_FILE_PROTOCOLS.filter((p) => p !== 'patch').join(', ')}`)
    .option('--strict', "tighten the original's quirks (benchmark mismatch, duplicate hooks, non-string description, ...)")
    .option('--code-hook-only', 'reject legacy DSL actions (require_code_hook_only_patch)')
    .option('--reject-runtime-noop', 'apply the static runtime no-op check of the RL rewards')
    .option('--json', 'machine-readable verdict')
    .addHelpText(
      'after',
      `
Prints the verdict; an invalid patch names the field, the rule and the original's message.
Exit 0 when valid, 1 when invalid, 2 for usage errors (missing file, unknown --bench or --protocol).`,
    )
    .action(async (file: string, opts: ValidateCommandOptions) => {
      process.exitCode = await validateCommand(file, opts, deps);
    });
}
