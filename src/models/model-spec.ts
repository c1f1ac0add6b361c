/**
 * Model SPEC strings, as given to `--model`, `--target` and `--engineer`:
 *
 * - `openai:<base-url>#<model>[?option=value&...]` — an OpenAI-compatible server. Options:
 *   - `reasoning` = `reasoning` | `reasoning_content` | `auto` | `none` — response field holding reasoning (default auto)
 *   - `temperature` = number >= 0
 *   - `max_tokens` = positive integer
 *   - `top_p` = number in (0, 1]; `seed` = integer — passed through in the request body
 *   - `tool_choice` = `auto` | `required` | `none`
 *   - `parallel_tool_calls` = `true` | `false`
 *   - `enable_thinking` = `true` | `false` — sent as `chat_template_kwargs.enable_thinking`
 *   - `continue_final_message` = `true` | `false` — continue a trailing assistant message (prefill)
 *   - `timeout` = seconds per attempt
 *   - `attempts` = total attempts including retries (1 disables retries)
 *   - `key_env` = name of the environment variable holding the API key (default OPENAI_API_KEY)
 *   - `engineer_protocol` = `auto` | `prefill` | `full` — engineers only: how the engineer is asked (default auto)
 *   - `deterministic` = `true` | `false` — targets: the server gives the same answer to the same request at
 *     temperature 0, so reruns replay the baseline's turns by default (`--replay`; default false)
 *   - caps on what the server may send (positive integers; see `response-limits.ts` for what each does):
 *     `max_body_bytes` (default 16777216), `max_content_chars` (262144), `max_reasoning_chars` (262144),
 *     `max_tool_args_chars` (65536), `max_tool_calls` (16)
 *
 *   Example: `openai:http://localhost:8000/v1#Qwen/Qwen3-8B?reasoning=reasoning_content&temperature=0`.
 * - `sim:<bench>[?seed=<n>&…&latency_ms=<n>]` — a simulated target; only parsed here, built by the benchmark's
 *   simulation, which checks its own parameters (`latency_ms` delays every answer, to emulate a real server's latency).
 * - `scripted:<file>` — a scripted model file (see `loadScriptedModelFile`).
 * - `symbolic` — the built-in symbolic engineer.
 */
import { ConfigError } from '../episode/index.js';
import type { OpenAICompatibleModelOptions } from './openai-compatible-model.js';
import { RESPONSE_LIMIT_OPTION, type ResponseLimits } from './response-limits.js';
import { REASONING_FIELDS } from './wire-format.js';
import type { ReasoningField } from './wire-format.js';


/** The accepted SPEC forms, as listed in error messages. */
export const MODEL_SPEC_FORMS: readonly string[] = [
  'openai:<base-url>#<model>[?reasoning=…&temperature=…&max_tokens=…]',
  'sim:<benchmark>[?seed=<n>&faults=<list>&latency_ms=<n>]',
  'scripted:<file>',
  'symbolic',
];

/**
 * How an LLM engineer asks: `prefill` (the reference: a `<think>\n` prefill the server continues, which needs
 * `continue_final_message` / `add_generation_prompt` / `chat_template_kwargs`), `full` (the release's
 * `full_think_patch`: none of them, the model writes the whole `<think>…</think><patch>…</patch>`), or
 * `auto` (the default: prefill, and full from the first request the server refuses).
 */
export const ENGINEER_PROTOCOL_CHOICES = ['auto', 'prefill', 'full'] as const;
export type EngineerProtocolChoice = (typeof ENGINEER_PROTOCOL_CHOICES)[number];

/** The adapter settings an `openai:` SPEC can carry; spread them into `createOpenAICompatibleModel`. */
export type OpenAISpecSettings = Pick<
  OpenAICompatibleModelOptions,
  | 'reasoningField'
  | 'temperature'
  | 'maxTokens'
  | 'toolChoice'
  | 'parallelToolCalls'
  | 'chatTemplateKwargs'
  | 'extraBody'
  | 'continueFinalMessage'
  | 'timeoutMs'
  | 'apiKeyEnv'
  | 'retry'
  | 'limits'
>;

export type ModelSpec =
  /** `engineerProtocol` (SPEC option `engineer_protocol`) only means something for an engineer. */
  | { kind: 'openai'; baseURL: string; model: string; settings: OpenAISpecSettings; engineerProtocol?: EngineerProtocolChoice; deterministic?: boolean }
  /** `params` holds every query parameter verbatim (`seed` and `faults` included) for the simulation to read. */
  | { kind: 'sim'; bench: string; seed: number | undefined; faults: string | undefined; params: Record<string, string> }
  | { kind: 'scripted'; path: string }
  | { kind: 'symbolic' };

export const OPENAI_SPEC_OPTIONS: readonly string[] = [
  'reasoning',
  'temperature',
  'max_tokens',
  'top_p',
  'seed',
  'tool_choice',
  'parallel_tool_calls',
  'enable_thinking',
  'continue_final_message',
  'timeout',
  'attempts',
  'key_env',
  'engineer_protocol',
  'deterministic',
  ...Object.values(RESPONSE_LIMIT_OPTION),
];

const LIMIT_OF_OPTION = new Map(Object.entries(RESPONSE_LIMIT_OPTION).map(([key, option]) => [option as string, key as keyof ResponseLimits]));

export interface ParseModelSpecOptions {
  /** The flag or config key the SPEC came from, for error messages. Default `model`. */
  field?: string;
}

/** Parses a model SPEC string; any malformed SPEC is a ConfigError that lists the accepted forms. */
export function parseModelSpec(spec: string, options: ParseModelSpecOptions = {}): ModelSpec {
  const field = options.field ?? 'model';
  const text = spec.trim();
  const fail = (problem: string, allowed: readonly string[] = MODEL_SPEC_FORMS): never => {
    throw new ConfigError({ message: `Invalid ${field === 'model' || field.startsWith('--') ? field : `--${field}`} SPEC '${spec}': ${problem}.`, field, allowed });
  };

  if (text === 'symbolic') return { kind: 'symbolic' };
  const colon = text.indexOf(':');
  const scheme = colon < 0 ? text : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  switch (scheme) {
    case 'openai':
      return parseOpenAI(rest, fail);
    case 'sim':
      return parseSim(rest, fail);
    case 'scripted':
      if (rest === '') fail('scripted: needs a file path, e.g. scripted:turns.json');
      return { kind: 'scripted', path: rest };
    case 'http':
    case 'https':
      return fail(`a bare URL needs the openai: prefix and a model name, e.g. openai:${text.split('#')[0]}#<model>`);
    case '':
      return fail('it is empty');
    default:
      return fail(`unknown kind '${scheme}'`);
  }
}

type Fail = (problem: string, allowed?: readonly string[]) => never;

function parseOpenAI(rest: string, fail: Fail): ModelSpec {
  const hash = rest.indexOf('#');
  if (hash < 0) fail('openai: needs a model name after #, e.g. openai:http://localhost:8000/v1#my-model');
  const baseURL = rest.slice(0, hash);
  const afterHash = rest.slice(hash + 1);
  const question = afterHash.indexOf('?');
  const model = (question < 0 ? afterHash : afterHash.slice(0, question)).trim();
  const query = question < 0 ? '' : afterHash.slice(question + 1);
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    fail(`base URL '${baseURL}' is not an http(s) URL (expected e.g. http://localhost:8000/v1)`);
  }
  if (model === '') fail('the model name after # is empty');

  const settings: OpenAISpecSettings = {};
  const params = readQuery(query, OPENAI_SPEC_OPTIONS, fail);
  const chatTemplateKwargs: Record<string, unknown> = {};
  const extraBody: Record<string, unknown> = {};
  const limits: Partial<ResponseLimits> = {};
  let engineerProtocol: EngineerProtocolChoice | undefined;
  let deterministic: boolean | undefined;
  for (const [key, value] of Object.entries(params)) {
    const limit = LIMIT_OF_OPTION.get(key);
    if (limit !== undefined) {
      limits[limit] = readNumber(key, value, fail, (n) => Number.isSafeInteger(n) && n >= 1, 'a positive integer');
      continue;
    }
    switch (key) {
      case 'reasoning':
        if (!REASONING_FIELDS.includes(value as ReasoningField)) fail(`reasoning must be one of ${REASONING_FIELDS.join(', ')}`, REASONING_FIELDS);
        settings.reasoningField = value as ReasoningField;
        break;
      case 'temperature':
        settings.temperature = readNumber(key, value, fail, (n) => n >= 0, 'a number >= 0');
        break;
      case 'max_tokens':
        settings.maxTokens = readNumber(key, value, fail, (n) => Number.isInteger(n) && n > 0, 'a positive integer');
        break;
      case 'top_p':
        extraBody.top_p = readNumber(key, value, fail, (n) => n > 0 && n <= 1, 'a number in (0, 1]');
        break;
      case 'seed':
        extraBody.seed = readNumber(key, value, fail, (n) => Number.isInteger(n), 'an integer');
        break;
      case 'tool_choice':
        if (value !== 'auto' && value !== 'required' && value !== 'none') fail('tool_choice must be auto, required or none', ['auto', 'required', 'none']);
        settings.toolChoice = value;
        break;
      case 'parallel_tool_calls':
        settings.parallelToolCalls = readBoolean(key, value, fail);
        break;
      case 'enable_thinking':
        chatTemplateKwargs.enable_thinking = readBoolean(key, value, fail);
        break;
      case 'continue_final_message':
        settings.continueFinalMessage = readBoolean(key, value, fail);
        break;
      case 'timeout':
        settings.timeoutMs = Math.round(1000 * readNumber(key, value, fail, (n) => n > 0, 'a number of seconds > 0'));
        break;
      case 'attempts':
        settings.retry = { maxAttempts: readNumber(key, value, fail, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1') };
        break;
      case 'engineer_protocol':
        if (!(ENGINEER_PROTOCOL_CHOICES as readonly string[]).includes(value)) fail(`engineer_protocol must be one of ${ENGINEER_PROTOCOL_CHOICES.join(', ')}`, ENGINEER_PROTOCOL_CHOICES);
        engineerProtocol = value as EngineerProtocolChoice;
        break;
      case 'deterministic':
        deterministic = readBoolean(key, value, fail);
        break;
      case 'key_env':
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) fail(`key_env must be an environment variable name, got '${value}'`);
        settings.apiKeyEnv = value;
        break;
    }
  }
  if (Object.keys(chatTemplateKwargs).length > 0) settings.chatTemplateKwargs = chatTemplateKwargs;
  if (Object.keys(extraBody).length > 0) settings.extraBody = extraBody;
  if (Object.keys(limits).length > 0) settings.limits = limits;
  return { kind: 'openai', baseURL, model, settings, ...(engineerProtocol === undefined ? {} : { engineerProtocol }), ...(deterministic === undefined ? {} : { deterministic }) };
}

function parseSim(rest: string, fail: Fail): ModelSpec {
  const question = rest.indexOf('?');
  const bench = question < 0 ? rest : rest.slice(0, question);
  // Which benchmarks have a simulated target, and which parameters each takes, is the registry's to say.
  if (!/^[a-z][a-z0-9_-]*$/.test(bench)) fail(bench === '' ? 'sim: needs a benchmark name' : `'${bench}' is not a benchmark name`);
  const params = readQuery(question < 0 ? '' : rest.slice(question + 1), undefined, fail);
  const seed = params.seed === undefined ? undefined : readNumber('seed', params.seed, fail, (n) => Number.isInteger(n) && n >= 0, 'an integer >= 0');
  if (params.faults === '') fail('faults is empty');
  return { kind: 'sim', bench, seed, faults: params.faults, params };
}

function readQuery(query: string, allowed: readonly string[] | undefined, fail: Fail): Record<string, string> {
  const params: Record<string, string> = {};
  if (query === '') return params;
  for (const [key, value] of new URLSearchParams(query)) {
    if (allowed && !allowed.includes(key)) fail(`unknown option '${key}'`, allowed);
    if (key in params) fail(`option '${key}' is given twice`);
    params[key] = value;
  }
  return params;
}

function readNumber(key: string, value: string, fail: Fail, valid: (n: number) => boolean, expected: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || !valid(n)) fail(`${key} must be ${expected}, got '${value}'`);
  return n;
}

function readBoolean(key: string, value: string, fail: Fail): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return fail(`${key} must be true or false, got '${value}'`, ['true', 'false']);
}
