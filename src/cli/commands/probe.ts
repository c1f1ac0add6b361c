import type { Command } from 'commander';

import { readIntegerOption } from '../../app/integer-option.js';
import { ConfigError } from '../../episode/index.js';
import { formatProbeReport, probeToolCalls } from '../../models/probe.js';
import { describeResponseLimits } from '../../models/response-limits.js';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { resolveTarget } from '../../app/resolve-target.js';
import { BenchmarkRegistry } from '../../benchmarks/registry.js';

export interface ProbeCommandOptions {
  model: string;
  /** A flag's text or a number; read by the shared integer reader (1..20). */
  attempts: number | string;
  toolChoice: string;
  json?: boolean;
  dataDir?: string;
}

/** Checks that a server returns structured tool calls (protocol.md §7). Exit 0 when every attempt passed, 1 otherwise. */
export async function probeCommand(o: ProbeCommandOptions, out: NodeJS.WriteStream = process.stdout, registry: BenchmarkRegistry = new BenchmarkRegistry()): Promise<number> {
  if (o.toolChoice !== 'auto' && o.toolChoice !== 'required') {
    throw new ConfigError({ message: `Unknown --tool-choice '${o.toolChoice}'.`, field: 'toolChoice', allowed: ['auto', 'required'] });
  }
  const attempts = readIntegerOption('attempts', o.attempts, { min: 1, max: 20 });
  const target = await resolveTarget(o.model, { registry, ...(o.dataDir !== undefined ? { dataDir: o.dataDir } : {}) });
  try {
    const report = await probeToolCalls(target.model, { attempts, toolChoice: o.toolChoice });
    out.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatProbeReport(report)}\n`);
    return report.passed ? EXIT_OK : EXIT_FAILED;
  } finally {
    await target.close();
  }
}

export function registerProbeCommand(program: Command): void {
  program
    .command('probe')
    .description('Check that a model server returns structured tool calls (tool calls written as text silently score 0).')
    .requiredOption('--model <spec>', "the server: openai:<base-url>#<model>[?options] (options: reasoning, temperature, max_tokens, top_p, seed, tool_choice, parallel_tool_calls, enable_thinking, continue_final_message, timeout, attempts, key_env, and the caps max_body_bytes, max_content_chars, max_reasoning_chars, max_tool_args_chars, max_tool_calls)")
    .option('--attempts <n>', 'attempts (1 to 20); all must pass; a permanent network error ends the probe at once', '3')
    .option('--tool-choice <mode>', 'auto (strict, default) or required', 'auto')
    .option('--json', 'machine-readable report')
    .addHelpText(
      'after',
      `
The probe offers one tool, lookup_weather(city), and asks for exactly one call with city "Paris".
An attempt passes when the reply has message.tool_calls[0] naming lookup_weather with city == "Paris"
and finish_reason "tool_calls" or "stop". When it fails, the report says what to change on the server
(e.g. vLLM --enable-auto-tool-choice --tool-call-parser hermes, SGLang --tool-call-parser, llama.cpp --jinja).
Exit 0 when every attempt passed, 1 when any failed, 2 for usage errors.

Caps on what the server may send (SPEC options, defaults shown; the same for run, improve and --engineer):
${describeResponseLimits().map((line) => `  ${line}`).join('\n')}`,
    )
    .action(async (opts: { model: string; attempts: string; toolChoice: string; json?: boolean }) => {
      process.exitCode = await probeCommand(opts);
    });
}
