/**
 * The tool-call probe (protocol.md §7): does this server return structured `message.tool_calls`? Agents
 * only act through structured calls, so a server that leaves the call as text in `content` silently
 * scores 0 on every task. The probe asks for one call of `lookup_weather` for Paris and, when an attempt
 * fails, explains what to change on the server or in the SPEC.
 */
import type { ToolCall, ToolSpec } from '../episode/index.js';
import { trimEndOf } from '../python/text-scan.js';
import { isModelCallError } from './chat-model.js';
import type { ChatModel, ModelCallError, ModelFailureKind } from './chat-model.js';
import { BAD_ARGUMENTS_FIXES, PARSER_FIXES, isXmlToolCallText, looksLikeToolCallText, toolCallTextFixes } from './turn-diagnosis.js';

export const PROBE_TOOL: ToolSpec = {
  name: 'lookup_weather',
  description: 'Look up the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'Name of the city.' } },
    required: ['city'],
    additionalProperties: false,
  },
};

export const PROBE_PROMPT = 'Call the lookup_weather tool exactly once, with city set to "Paris". Answer with that tool call only.';
export const PROBE_CITY = 'Paris';
/** Sampling used for every attempt, as in the reference probe. */
export const PROBE_TEMPERATURE = 0;
export const PROBE_MAX_TOKENS = 512;

/** A model the probe can call; OpenAI-compatible models also tell where they point and what they serve. */
export interface ProbeTarget extends ChatModel {
  readonly endpoint?: { baseURL: string; model: string };
  listModels?(signal?: AbortSignal): Promise<string[]>;
}

export interface ProbeOptions {
  /** Default 3. */
  attempts?: number;
  /** Default `auto`, the strict test: `required` makes some servers force a call even without a parser. */
  toolChoice?: 'auto' | 'required';
  signal?: AbortSignal;
}

/** The three pass rules of the reference probe. */
export type ProbeRule = 'function_name' | 'city_argument' | 'finish_reason';

export interface ProbeCheck {
  rule: ProbeRule;
  passed: boolean;
  /** What was seen, e.g. `name 'lookup_weather'`. */
  detail: string;
}

export type ProbeDiagnosisKind =
  | 'tool_call_as_text'
  | 'tool_call_in_reasoning'
  | 'no_tool_call'
  | 'truncated'
  | 'wrong_function'
  | 'arguments_not_json'
  | 'wrong_arguments'
  | 'bad_finish_reason'
  | 'model_not_found'
  | 'endpoint_not_found'
  | 'unauthorized'
  | 'tools_not_enabled'
  | 'http_error'
  | 'connection_refused'
  | 'timeout'
  | 'network_error'
  | 'malformed_response'
  | 'response_too_large'
  | 'aborted';

/** Why an attempt failed and what to change. */
export interface ProbeDiagnosis {
  kind: ProbeDiagnosisKind;
  /** One line, e.g. "tool call returned as text in message.content". */
  title: string;
  /** What was observed, with the evidence. */
  explanation: string;
  /** Concrete things to try, most likely first. */
  fixes: string[];
}

export interface ProbeAttempt {
  /** 1-based. */
  attempt: number;
  passed: boolean;
  /** The pass rules as evaluated; empty when the call itself failed. */
  checks: ProbeCheck[];
  response?: {
    content: string | null;
    toolCalls: ToolCall[];
    reasoning?: string;
    finishReason: string | null;
    latencyMs: number;
  };
  error?: { message: string; status?: number; failure?: ModelFailureKind };
  /** Present exactly when the attempt failed. */
  diagnosis?: ProbeDiagnosis;
}

export interface ProbeReport {
  model: string;
  endpoint?: { baseURL: string; model: string };
  toolChoice: 'auto' | 'required';
  /** True only when every attempt passed. */
  passed: boolean;
  passedAttempts: number;
  attempts: ProbeAttempt[];
  /** Models the server lists, fetched when an attempt got HTTP 404. */
  availableModels?: string[];
  /** Attempts asked for; more than `attempts.length` when a permanent error ended the probe early. */
  requestedAttempts: number;
}

/** A transport failure that no later attempt can change (refused connection, unknown host). */
function isPermanentTransportFailure(error: ModelCallError): boolean {
  return (error.failure === 'connection_refused' || error.failure === 'network') && !error.retryable;
}

/** Runs the probe. Model-call failures become failed attempts; any other error (a bug) is thrown. */
export async function probeToolCalls(model: ProbeTarget, options: ProbeOptions = {}): Promise<ProbeReport> {
  const attemptCount = options.attempts ?? 3;
  if (!Number.isInteger(attemptCount) || attemptCount < 1) throw new RangeError(`attempts must be an integer >= 1, got ${attemptCount}`);
  const toolChoice = options.toolChoice ?? 'auto';
  let availableModels: string[] | undefined;
  const attempts: ProbeAttempt[] = [];

  for (let attempt = 1; attempt <= attemptCount; attempt++) {
    try {
      const response = await model.complete({
        messages: [{ role: 'user', content: PROBE_PROMPT }],
        tools: [PROBE_TOOL],
        toolChoice,
        temperature: PROBE_TEMPERATURE,
        maxTokens: PROBE_MAX_TOKENS,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const { content, toolCalls, reasoning } = response.message;
      const checks = evaluateRules(toolCalls, response.finishReason);
      const passed = checks.every((check) => check.passed);
      attempts.push({
        attempt,
        passed,
        checks,
        response: { content, toolCalls, ...(reasoning === undefined ? {} : { reasoning }), finishReason: response.finishReason, latencyMs: response.latencyMs },
        ...(passed ? {} : { diagnosis: diagnoseResponse(content, toolCalls, reasoning, response.finishReason) }),
      });
    } catch (error) {
      if (!isModelCallError(error)) throw error;
      if (error.status === 404 && availableModels === undefined && model.listModels) {
        availableModels = await model.listModels(options.signal).catch(() => undefined);
      }
      attempts.push({
        attempt,
        passed: false,
        checks: [],
        error: { message: error.message, ...(error.status === undefined ? {} : { status: error.status }), ...(error.failure === undefined ? {} : { failure: error.failure }) },
        diagnosis: diagnoseError(error, model, availableModels),
      });
      if (error.failure === 'aborted' || isPermanentTransportFailure(error)) break;
    }
  }
  const passedAttempts = attempts.filter((a) => a.passed).length;
  return {
    model: model.label,
    ...(model.endpoint ? { endpoint: model.endpoint } : {}),
    toolChoice,
    passed: passedAttempts === attempts.length,
    passedAttempts,
    attempts,
    ...(availableModels === undefined ? {} : { availableModels }),
    requestedAttempts: attemptCount,
  };
}

/** The reference pass rules, applied to the first tool call. */
function evaluateRules(toolCalls: ToolCall[], finishReason: string | null): ProbeCheck[] {
  const first = toolCalls[0];
  const args = first === undefined ? undefined : parseArguments(first.arguments);
  const city = args?.ok && isPlainObject(args.value) ? args.value.city : undefined;
  return [
    {
      rule: 'function_name',
      passed: first?.name === PROBE_TOOL.name,
      detail: first === undefined ? 'no tool call' : `name ${JSON.stringify(first.name)}`,
    },
    {
      rule: 'city_argument',
      passed: city === PROBE_CITY,
      detail: first === undefined ? 'no tool call' : `arguments ${truncate(first.arguments, 200)}`,
    },
    {
      rule: 'finish_reason',
      passed: finishReason === 'tool_calls' || finishReason === 'stop',
      detail: `finish_reason ${JSON.stringify(finishReason)}`,
    },
  ];
}

/** Text naming the probe's own tool, on top of the general tool-call markup. */
const PROBE_CALL_TEXT = /"name"\s*:\s*"lookup_weather"|lookup_weather\s*\(/;

function isToolCallText(text: string): boolean {
  return looksLikeToolCallText(text) || PROBE_CALL_TEXT.test(text);
}

function diagnoseResponse(content: string | null, toolCalls: ToolCall[], reasoning: string | undefined, finishReason: string | null): ProbeDiagnosis {
  const first = toolCalls[0];
  if (first === undefined) {
    if (content !== null && isToolCallText(content)) {
      const xml = isXmlToolCallText(content);
      return {
        kind: 'tool_call_as_text',
        title: 'tool call returned as text in message.content',
        explanation:
          `The server left the tool call as text in message.content (finish_reason ${JSON.stringify(finishReason)}) instead of ` +
          `returning structured message.tool_calls, so its tool-call parser is off or does not match the model. ` +
          `Content: ${truncate(content, 200)}`,
        fixes: toolCallTextFixes(xml),
      };
    }
    if (reasoning !== undefined && isToolCallText(reasoning)) {
      return {
        kind: 'tool_call_in_reasoning',
        title: 'tool call found inside the reasoning field',
        explanation: `No structured tool call; the call was written inside the reasoning text, which the reasoning parser kept apart. Reasoning: ${truncate(reasoning, 200)}`,
        fixes: [
          'Disable thinking for the target: chat_template_kwargs {"enable_thinking": false} (SPEC option enable_thinking=false).',
          "Check that --reasoning-parser matches the model (e.g. qwen3, deepseek_r1) and that the tool-call parser is enabled.",
        ],
      };
    }
    if (finishReason === 'length') return truncatedDiagnosis();
    return {
      kind: 'no_tool_call',
      title: 'answered in text without calling the tool',
      explanation: `The model replied with text and no tool call. Content: ${truncate(content ?? '(null)', 200)}`,
      fixes: [
        'Check that the model supports tool calling and that the server renders the tools into the prompt:',
        ...PARSER_FIXES.slice(0, 3),
        'Run the probe with tool_choice=required to see whether the server can force a call.',
      ],
    };
  }
  if (first.name !== PROBE_TOOL.name) {
    return {
      kind: 'wrong_function',
      title: `called ${JSON.stringify(first.name)} instead of lookup_weather`,
      explanation: `The first tool call names ${JSON.stringify(first.name)}; the only offered tool is lookup_weather.`,
      fixes: [
        "A mangled or empty name usually means the tool-call parser does not match the model's template; choose the parser for this model family.",
        'Check that the server passes the tools list to the chat template.',
      ],
    };
  }
  const args = parseArguments(first.arguments);
  if (!args.ok) {
    return {
      kind: 'arguments_not_json',
      title: 'tool-call arguments are not valid JSON',
      explanation: `The arguments ${truncate(first.arguments, 200)} do not parse as JSON (${args.error}).`,
      fixes: [...BAD_ARGUMENTS_FIXES],
    };
  }
  if (!isPlainObject(args.value) || args.value.city !== PROBE_CITY) {
    return {
      kind: 'wrong_arguments',
      title: 'arguments do not have city "Paris"',
      explanation: `Expected arguments {"city":"Paris"}, got ${truncate(first.arguments, 200)}.`,
      fixes: [
        'The server returns structured calls, but the model filled the argument wrongly: check the sampling settings (temperature 0) and the model.',
      ],
    };
  }
  if (finishReason === 'length') return truncatedDiagnosis();
  return {
    kind: 'bad_finish_reason',
    title: `finish_reason ${JSON.stringify(finishReason)}`,
    explanation: `finish_reason was ${JSON.stringify(finishReason)}; a tool-call turn must end with tool_calls or stop.`,
    fixes: ['Check the server version and its tool-call parser; a content filter or an error can end the turn early.'],
  };
}

function truncatedDiagnosis(): ProbeDiagnosis {
  return {
    kind: 'truncated',
    title: 'answer cut off at max_tokens',
    explanation: `finish_reason was "length": the turn used all ${PROBE_MAX_TOKENS} tokens before finishing, often on reasoning.`,
    fixes: ['Disable thinking for the target (enable_thinking=false) or check that the reasoning parser is set.'],
  };
}

function diagnoseError(error: ModelCallError, model: ProbeTarget, availableModels: string[] | undefined): ProbeDiagnosis {
  const baseURL = model.endpoint?.baseURL ?? 'the base URL';
  const modelName = model.endpoint?.model;
  const serverSays = error.serverMessage ?? '';
  switch (error.failure) {
    case 'connection_refused':
      return {
        kind: 'connection_refused',
        title: 'connection refused',
        explanation: `Nothing is listening at ${baseURL}. ${error.message}`,
        fixes: ['Start the server, or fix the host and port in the base URL.'],
      };
    case 'timeout':
      return {
        kind: 'timeout',
        title: 'no response before the timeout',
        explanation: error.message,
        fixes: ['Check that the server is up and not overloaded (a model may still be loading).', 'Raise the per-attempt timeout (SPEC option timeout=<seconds>).'],
      };
    case 'connection_lost':
    case 'network':
      return {
        kind: 'network_error',
        title: 'network error',
        explanation: error.message,
        fixes: ['Check the host name and port in the base URL and that the server stays up while answering (see its log).'],
      };
    case 'malformed_response':
      return {
        kind: 'malformed_response',
        title: 'the answer is not a chat completion',
        explanation: error.message,
        fixes: [`Check that ${baseURL} is an OpenAI-compatible API root (usually ending in /v1), not a web page or a proxy.`],
      };
    case 'response_too_large':
      return {
        kind: 'response_too_large',
        title: 'the answer is larger than max_body_bytes',
        explanation: error.message,
        fixes: [
          'Check max_tokens and the server: a chat turn is normally a few kilobytes.',
          'If such answers are expected, raise the cap with the SPEC option max_body_bytes=<bytes>.',
        ],
      };
    case 'aborted':
      return { kind: 'aborted', title: 'aborted', explanation: error.message, fixes: [] };
    default:
      break;
  }
  const status = error.status;
  if (status === 404 && /model/i.test(serverSays)) {
    const listed = availableModels !== undefined && availableModels.length > 0 ? `: ${availableModels.join(', ')}` : '';
    return {
      kind: 'model_not_found',
      title: `model ${modelName === undefined ? '' : `'${modelName}' `}not found`,
      explanation: `HTTP 404: ${serverSays}`,
      fixes: [
        `Use a model name the server serves (GET ${baseURL}/models)${listed}.`,
        'vLLM serves the name given by --served-model-name (default: the model path as passed to vllm serve).',
        'Check that the base URL points at the server you meant.',
      ],
    };
  }
  if (status === 404) {
    const fixes = [`Check the base URL: it must include the API prefix, usually /v1 (e.g. http://localhost:8000/v1).`];
    if (model.endpoint !== undefined && !/\/v1\/?$/.test(model.endpoint.baseURL)) fixes.unshift(`The base URL ${model.endpoint.baseURL} does not end in /v1; try ${trimEndOf(model.endpoint.baseURL, '/')}/v1.`);
    fixes.push('Check the model name too: some servers answer 404 for an unknown model.');
    return {
      kind: 'endpoint_not_found',
      title: 'endpoint not found (HTTP 404)',
      explanation: `${baseURL}/chat/completions answered 404${serverSays === '' ? '' : ` (${serverSays})`}.`,
      fixes,
    };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'unauthorized',
      title: `not authorized (HTTP ${status})`,
      explanation: error.message,
      fixes: ['Set the API key: export OPENAI_API_KEY=<key>, or name another variable with the SPEC option key_env=<NAME>.'],
    };
  }
  if (/jinja/i.test(serverSays)) {
    return {
      kind: 'tools_not_enabled',
      title: 'the server does not accept tools',
      explanation: error.message,
      fixes: ['llama.cpp llama-server: restart it with --jinja so tools are rendered through the chat template.'],
    };
  }
  if (/enable-auto-tool-choice|tool-call-parser|tool_choice|tools? (is|are) not supported|does not support tools/i.test(serverSays)) {
    return {
      kind: 'tools_not_enabled',
      title: 'the server does not accept tools',
      explanation: error.message,
      fixes: [...PARSER_FIXES],
    };
  }
  return {
    kind: 'http_error',
    title: status === undefined ? 'request failed' : `HTTP ${status}`,
    explanation: error.message,
    fixes:
      status !== undefined && status >= 500
        ? ['The server failed while answering; its log says why.']
        : ['The server rejected the request; its message says which field. Some servers reject chat_template_kwargs or parallel_tool_calls: remove them from the settings.'],
  };
}

/**
 * Human-readable report for the CLI. When an attempt failed, what went wrong and what to fix come first,
 * then one line per attempt, then the verdict; a probe that passed is its attempt lines and the verdict.
 */
export function formatProbeReport(report: ProbeReport): string {
  const lines: string[] = [];
  const total = report.attempts.length;
  const requested = report.requestedAttempts;
  lines.push(`Tool-call probe of ${report.model} (tool_choice=${report.toolChoice}, ${requested} attempt(s))`);
  const attemptLines = report.attempts.map((attempt) => {
    const head = `  #${attempt.attempt} ${attempt.passed ? 'PASS' : 'FAIL'}`;
    if (attempt.passed && attempt.response) {
      const call = attempt.response.toolCalls[0];
      return `${head}  ${call?.name ?? ''}(${truncate(call?.arguments ?? '', 80)})  finish_reason=${attempt.response.finishReason ?? 'null'}  ${Math.round(attempt.response.latencyMs)} ms`;
    }
    return `${head}  ${attempt.diagnosis?.title ?? 'failed'}`;
  });
  if (report.passed) {
    lines.push(...attemptLines);
    lines.push(`PASS: all ${total} attempt(s) returned a structured lookup_weather call for Paris.`);
    return lines.join('\n');
  }

  const groups = new Map<string, { diagnosis: ProbeDiagnosis; attempts: number[] }>();
  for (const attempt of report.attempts) {
    if (attempt.diagnosis === undefined) continue;
    const key = `${attempt.diagnosis.kind}\u0000${attempt.diagnosis.title}`;
    const group = groups.get(key);
    if (group) group.attempts.push(attempt.attempt);
    else groups.set(key, { diagnosis: attempt.diagnosis, attempts: [attempt.attempt] });
  }
  for (const { diagnosis, attempts } of groups.values()) {
    lines.push(`${capitalize(diagnosis.title)} (attempt${attempts.length > 1 ? 's' : ''} ${attempts.join(', ')}):`);
    lines.push(`  ${diagnosis.explanation}`);
    if (diagnosis.fixes.length > 0) {
      lines.push('  What to fix:');
      for (const fix of diagnosis.fixes) lines.push(`  - ${fix}`);
    }
    lines.push('');
  }
  lines.push('Attempts:', ...attemptLines);
  if (requested > total) {
    const skipped = requested - total === 1 ? `attempt ${requested} was` : `attempts ${total + 1}-${requested} were`;
    lines.push(`  (${skipped} not made: the error above is permanent and would repeat)`);
  }
  lines.push(`FAIL: ${report.passedAttempts} of ${total} attempt(s) passed. The server must return structured message.tool_calls.`);
  return lines.join('\n');
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Shortens model output for one-line display; line breaks are shown escaped, as in JSON. */
function truncate(text: string, max: number): string {
  const flat = text.replace(/\r?\n/g, '\\n');
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
}
