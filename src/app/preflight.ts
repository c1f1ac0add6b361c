/**
 * The pre-flight check of a command's servers, before any episode is played: one tool-call probe of an
 * OpenAI-compatible target (the probe's diagnosis, reused) and a model listing of an OpenAI-compatible
 * engineer. A server that cannot be reached, does not know the model or refuses the key stops the command
 * at once with the diagnosis; a target that answers but not with a structured tool call gets a warning
 * (its episodes will show the same, and the summary counts them). Simulated and scripted models are local
 * and are not checked.
 */
import { HarnessError } from '../episode/index.js';
import { isModelCallError } from '../models/chat-model.js';
import { probeToolCalls, type ProbeDiagnosisKind, type ProbeTarget } from '../models/probe.js';

/** A server that cannot serve the command; the CLI prints the message and exits 1. */
export class PreflightError extends HarnessError {
  readonly code = 'preflight_failed' as const;
}

/** Diagnoses that no episode could get past: the command stops before playing any. */
const FATAL: ReadonlySet<ProbeDiagnosisKind> = new Set(['connection_refused', 'network_error', 'timeout', 'model_not_found', 'endpoint_not_found', 'unauthorized', 'malformed_response']);

/** Probes a target once; throws a PreflightError for a fatal diagnosis and returns the warnings of the rest. */
export async function preflightTarget(model: ProbeTarget, signal?: AbortSignal): Promise<string[]> {
  if (model.simulated || model.endpoint === undefined) return [];
  const report = await probeToolCalls(model, { attempts: 1, ...(signal ? { signal } : {}) });
  const diagnosis = report.attempts[0]?.diagnosis;
  if (report.passed || diagnosis === undefined || diagnosis.kind === 'aborted') return [];
  const text = `${diagnosis.title}: ${diagnosis.explanation}${diagnosis.fixes.length > 0 ? `\n  fix: ${diagnosis.fixes.join('\n  fix: ')}` : ''}`;
  if (FATAL.has(diagnosis.kind)) throw new PreflightError({ message: `pre-flight check of the target ${model.label} failed, nothing was played: ${text}` });
  return [`pre-flight check of the target ${model.label}: ${text}\n  (harness-r1 probe --model '<spec>' shows the whole diagnosis)`];
}

/** Lists the engineer server's models; throws a PreflightError when it cannot be reached or lacks the model. */
export async function preflightEngineer(model: ProbeTarget | undefined, signal?: AbortSignal): Promise<void> {
  if (!model?.endpoint || !model.listModels) return;
  let listed: string[];
  try {
    listed = await model.listModels(signal);
  } catch (error) {
    // A server without GET /models (or one that refuses it) may still answer chat completions.
    if (isModelCallError(error) && error.failure === 'http_status' && error.status !== 401 && error.status !== 403) return;
    throw new PreflightError({ message: `pre-flight check of the engineer ${model.label} failed, nothing was played: ${error instanceof Error ? error.message : String(error)}`, cause: error });
  }
  if (listed.length > 0 && !listed.includes(model.endpoint.model)) {
    throw new PreflightError({ message: `pre-flight check of the engineer failed, nothing was played: ${model.endpoint.baseURL} does not serve the model '${model.endpoint.model}'. It serves: ${listed.join(', ')}.` });
  }
}
