import { isJsSpaceCode } from '../../python/text-scan.js';
import { ConfigError } from '../../episode/index.js';
import type { PyDict, PyValue } from '../../python/python-json.js';
import { pyStrip } from '../../python/python-text.js';
import { manifestSha256 } from './canonical-json.js';
import type { GoalOptions } from './clean-product.js';
import type { GoalSet, WebShopGoal } from './goals.js';
import { renderPage } from './render-page.js';
import type { WebShopEngine } from './webshop-engine.js';

/**
 * WebShop task identity (protocol.md §6.5). A baseline run and a patched rerun are comparable only
 * if every task is the same task: same goal seed, same parsed instruction, same goal record, same
 * product prices. Each task gets a manifest of those hashes; a batch gets one hash over its
 * (index, manifest digest) pairs. Field names are the protocol's own (snake_case), so manifests
 * written here and by the Python original can be compared directly.
 */
export const WEBSHOP_TASK_MANIFEST_PROTOCOL = 'webshop_task_manifest_v1';
export const WEBSHOP_BATCH_IDENTITY_PROTOCOL = 'webshop_batch_identity_v1';

export interface WebShopTaskManifest {
  protocol: typeof WEBSHOP_TASK_MANIFEST_PROTOCOL;
  goal_seed: number;
  index: number;
  instruction_sha256: string;
  goal_sha256: string;
  product_prices_sha256: string;
  /** Hash of the six fields above. */
  sha256: string;
}

/** The run metadata that carries a batch identity. */
export interface WebShopIdentityMetadata {
  webshop_identity_protocol: typeof WEBSHOP_BATCH_IDENTITY_PROTOCOL;
  webshop_goal_seed: number;
  /** Task index (as a string) → task manifest digest. */
  webshop_task_manifests: Record<string, string>;
  webshop_task_manifest_sha256: string;
}

export type IdentityCheck<T> = { ok: true; value: T } | { ok: false; message: string };

/** The goal dict as the original holds it, with Python types (ints as bigint, floats as number). */
export function goalToPyValue(goal: WebShopGoal, mode: GoalSet['mode']): PyDict {
  return new Map<string, PyValue>([
    ['asin', goal.asin],
    ['category', goal.category],
    ['query', goal.query],
    ['name', goal.name],
    ['product_category', goal.productCategory],
    ['instruction_text', goal.instructionText],
    ['attributes', [...goal.attributes]],
    ['price_upper', goal.hasPriceCap ? goal.priceUpper : BigInt(goal.priceUpper)],
    ['goal_options', goalOptionsToPyValue(goal.goalOptions)],
    ['weight', mode === 'human' ? BigInt(goal.weight) : goal.weight],
  ]);
}

function goalOptionsToPyValue(options: GoalOptions): PyValue {
  return options.kind === 'list' ? [...options.values] : new Map<string, PyValue>(options.entries);
}

/** `product_prices` (asin → float price) hashed once per engine. */
export function productPricesSha256(prices: ReadonlyMap<string, number>): string {
  return manifestSha256(new Map<string, PyValue>(prices));
}

const LABEL = /instruction:/gi;
const SEP = /\[sep\]/iy;
const NEXT_SEP = /\[sep\]/gi;

function isSpace(text: string, at: number): boolean {
  return isJsSpaceCode(text.charCodeAt(at));
}

/**
 * The group of `/Instruction:\s*\[SEP\]\s*([^\n]+?)\s*\[SEP\]/i`, by scans. The regex is quadratic: the
 * lazy group and the whitespace around it can trade a long run between them. Here, after the opening
 * `[SEP]` and its whitespace, the group runs to the whitespace before the next `[SEP]` unless a line break
 * comes first; failing that, when a `[SEP]` follows the whitespace directly, the regex backs into that
 * whitespace and takes its last character that is not a line break.
 */
function primaryInstruction(text: string): string | undefined {
  const sepAt = (at: number): boolean => {
    SEP.lastIndex = at;
    return SEP.test(text);
  };
  let nextSep = -1;
  let sepSpace = -1;
  let nextBreak = -1;
  LABEL.lastIndex = 0;
  for (let label = LABEL.exec(text); label !== null; label = LABEL.exec(text)) {
    let open = label.index + label[0].length;
    while (isSpace(text, open)) open++;
    if (!sepAt(open)) continue;
    const spaceStart = open + 5;
    let start = spaceStart;
    while (isSpace(text, start)) start++;
    if (start < text.length && text.charCodeAt(start) !== 0x0a) {
      if (nextSep !== -2 && nextSep < start + 1) {
        NEXT_SEP.lastIndex = start + 1;
        nextSep = NEXT_SEP.exec(text)?.index ?? -2;
        // The whitespace before it starts after `start`, which is not whitespace.
        sepSpace = nextSep;
        while (sepSpace > 0 && isSpace(text, sepSpace - 1)) sepSpace--;
      }
      if (nextSep >= 0) {
        const end = sepSpace;
        if (nextBreak !== -2 && nextBreak < start) {
          nextBreak = text.indexOf('\n', start);
          if (nextBreak < 0) nextBreak = -2;
        }
        if (nextBreak === -2 || nextBreak >= end) return text.slice(start, end);
      }
    }
    if (sepAt(start)) {
      for (let at = start - 1; at >= spaceStart; at--) if (text.charCodeAt(at) !== 0x0a) return text[at];
    }
  }
  return undefined;
}

/**
 * AgentBench's `_extract_instruction`: the text between `Instruction: [SEP]` and the next `[SEP]`
 * (case-insensitive), else the line after `Instruction:`, else the first 300 characters; stripped.
 */
export function extractInstruction(observation: string): string {
  const primary = primaryInstruction(observation);
  if (primary !== undefined) return pyStrip(primary);
  const fallback = /Instruction:\s*\n([\s\S]+?)(?:\n\n|\[|$)/.exec(observation);
  if (fallback) return pyStrip(fallback[1]!);
  return Array.from(observation).slice(0, 300).join('');
}

/** Builds task manifests for an engine; the product-price hash is computed once. */
export function createTaskManifestBuilder(engine: WebShopEngine): (index: number) => WebShopTaskManifest {
  const pricesHash = productPricesSha256(engine.goalSet.prices);
  return (index) => {
    const goal = engine.goalSet.goals[index];
    if (!goal) throw new ConfigError({ message: `WebShop goal index ${index} is out of range 0..${engine.goalSet.goals.length - 1}.`, field: 'taskIndex' });
    const observation = renderPage({ kind: 'search' }, goal.instructionText).observation;
    return taskManifest({
      goalSeed: engine.goalSet.goalSeed,
      index,
      instructionSha256: manifestSha256(extractInstruction(observation)),
      goalSha256: manifestSha256(goalToPyValue(goal, engine.goalSet.mode)),
      productPricesSha256: pricesHash,
    });
  };
}

/** A task manifest from its parts, with its own digest. */
export function taskManifest(parts: { goalSeed: number; index: number; instructionSha256: string; goalSha256: string; productPricesSha256: string }): WebShopTaskManifest {
  const payload = {
    protocol: WEBSHOP_TASK_MANIFEST_PROTOCOL,
    goal_seed: parts.goalSeed,
    index: parts.index,
    instruction_sha256: parts.instructionSha256,
    goal_sha256: parts.goalSha256,
    product_prices_sha256: parts.productPricesSha256,
  } as const;
  return { ...payload, sha256: payloadSha256(payload) };
}

function payloadSha256(payload: Omit<WebShopTaskManifest, 'sha256'>): string {
  return manifestSha256(
    new Map<string, PyValue>([
      ['protocol', payload.protocol],
      ['goal_seed', BigInt(payload.goal_seed)],
      ['index', BigInt(payload.index)],
      ['instruction_sha256', payload.instruction_sha256],
      ['goal_sha256', payload.goal_sha256],
      ['product_prices_sha256', payload.product_prices_sha256],
    ]),
  );
}

/** `_require_sha256`: 64 hex characters, compared lower-cased. */
function sha256Field(value: unknown, field: string): IdentityCheck<string> {
  const text = String(value ?? '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(text) ? { ok: true, value: text } : { ok: false, message: `${field} must be a 64-character SHA256 digest` };
}

function intField(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

/** `validate_task_manifest`: protocol, index and seed as expected, well-formed digests, recomputed digest equal. */
export function validateTaskManifest(manifest: unknown, expected: { index?: number; goalSeed?: number } = {}): IdentityCheck<WebShopTaskManifest> {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) return { ok: false, message: 'missing webshop_task_manifest in rollout result' };
  const m = manifest as Record<string, unknown>;
  if (m.protocol !== WEBSHOP_TASK_MANIFEST_PROTOCOL) return { ok: false, message: `unsupported WebShop task manifest protocol: ${JSON.stringify(m.protocol ?? '')}` };
  const index = intField(m.index);
  const goalSeed = intField(m.goal_seed);
  if (index === undefined || goalSeed === undefined) return { ok: false, message: 'task manifest index/goal_seed is invalid' };
  if (expected.index !== undefined && index !== expected.index) return { ok: false, message: `task manifest index mismatch: expected ${expected.index}, got ${index}` };
  if (expected.goalSeed !== undefined && goalSeed !== expected.goalSeed) return { ok: false, message: `task manifest goal_seed mismatch: expected ${expected.goalSeed}, got ${goalSeed}` };
  const digests: Record<string, string> = {};
  for (const field of ['instruction_sha256', 'goal_sha256', 'product_prices_sha256', 'sha256'] as const) {
    const check = sha256Field(m[field], field === 'sha256' ? 'task manifest sha256' : field);
    if (!check.ok) return check;
    digests[field] = check.value;
  }
  const rebuilt = taskManifest({ goalSeed, index, instructionSha256: digests.instruction_sha256!, goalSha256: digests.goal_sha256!, productPricesSha256: digests.product_prices_sha256! });
  if (rebuilt.sha256 !== digests.sha256) return { ok: false, message: `task manifest digest mismatch for index ${index}: recorded=${digests.sha256}, computed=${rebuilt.sha256}` };
  return { ok: true, value: rebuilt };
}

/** `batch_manifest_sha256`: the hash of {protocol, goal_seed, tasks: [[index, digest], …] by index}. */
export function batchManifestSha256(goalSeed: number, taskHashes: ReadonlyMap<number, string>): string {
  const tasks = [...taskHashes].sort(([a], [b]) => a - b).map(([index, digest]): PyValue => [BigInt(index), digest.toLowerCase()]);
  return manifestSha256(
    new Map<string, PyValue>([
      ['protocol', WEBSHOP_BATCH_IDENTITY_PROTOCOL],
      ['goal_seed', BigInt(goalSeed)],
      ['tasks', tasks],
    ]),
  );
}

/** `identity_metadata_from_rows` for manifests already validated: exactly the indices start..end-1. */
export function identityMetadata(manifests: readonly WebShopTaskManifest[], range: { start: number; end: number; goalSeed: number }): IdentityCheck<WebShopIdentityMetadata> {
  const hashes = new Map<number, string>();
  for (const manifest of manifests) {
    const check = validateTaskManifest(manifest, { goalSeed: range.goalSeed });
    if (!check.ok) return check;
    if (manifest.index < range.start || manifest.index >= range.end) return { ok: false, message: `unexpected rollout index ${manifest.index}` };
    const previous = hashes.get(manifest.index);
    if (previous !== undefined && previous !== check.value.sha256) {
      return { ok: false, message: `conflicting task manifests for duplicate index ${manifest.index}: ${previous} != ${check.value.sha256}` };
    }
    hashes.set(manifest.index, check.value.sha256);
  }
  const missing: number[] = [];
  for (let i = range.start; i < range.end; i++) if (!hashes.has(i)) missing.push(i);
  if (missing.length > 0) return { ok: false, message: `missing task manifests for indices: ${JSON.stringify(missing.slice(0, 20))}` };
  const sorted = new Map([...hashes].sort(([a], [b]) => a - b));
  return {
    ok: true,
    value: {
      webshop_identity_protocol: WEBSHOP_BATCH_IDENTITY_PROTOCOL,
      webshop_goal_seed: range.goalSeed,
      webshop_task_manifests: Object.fromEntries([...sorted].map(([i, d]) => [String(i), d])),
      webshop_task_manifest_sha256: batchManifestSha256(range.goalSeed, sorted),
    },
  };
}

/** `validate_identity_metadata`: protocol, a non-empty range, exactly its indices, and a matching batch hash. */
export function validateIdentityMetadata(metadata: unknown): IdentityCheck<{ start: number; end: number; goalSeed: number; taskHashes: Map<number, string>; sha256: string }> {
  const m = (metadata ?? {}) as Record<string, unknown>;
  if (m.webshop_identity_protocol !== WEBSHOP_BATCH_IDENTITY_PROTOCOL) {
    return { ok: false, message: `WebShop metadata has no strict task identity; regenerate baseline rollouts with ${WEBSHOP_BATCH_IDENTITY_PROTOCOL}` };
  }
  const start = intField(m.start);
  const end = intField(m.end);
  const goalSeed = intField(m.webshop_goal_seed);
  if (start === undefined || end === undefined || goalSeed === undefined) return { ok: false, message: 'WebShop identity metadata has invalid range/goal_seed' };
  if (end <= start) return { ok: false, message: `invalid WebShop batch range [${start}, ${end})` };
  const raw = m.webshop_task_manifests;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, message: 'webshop_task_manifests must be an index-to-SHA256 object' };
  const taskHashes = new Map<number, string>();
  for (const [key, digest] of Object.entries(raw as Record<string, unknown>)) {
    const index = intField(key);
    if (index === undefined) return { ok: false, message: `invalid task manifest index: ${JSON.stringify(key)}` };
    const check = sha256Field(digest, `task manifest ${index}`);
    if (!check.ok) return check;
    taskHashes.set(index, check.value);
  }
  const missing: number[] = [];
  for (let i = start; i < end; i++) if (!taskHashes.has(i)) missing.push(i);
  const extra = [...taskHashes.keys()].filter((i) => i < start || i >= end).sort((a, b) => a - b);
  if (missing.length > 0 || extra.length > 0) {
    return { ok: false, message: `task manifest index set mismatch; missing=${JSON.stringify(missing.slice(0, 20))}, extra=${JSON.stringify(extra.slice(0, 20))}` };
  }
  const recorded = sha256Field(m.webshop_task_manifest_sha256, 'webshop_task_manifest_sha256');
  if (!recorded.ok) return recorded;
  const computed = batchManifestSha256(goalSeed, taskHashes);
  if (recorded.value !== computed) return { ok: false, message: `batch task manifest mismatch: recorded=${recorded.value}, computed=${computed}` };
  return { ok: true, value: { start, end, goalSeed, taskHashes, sha256: recorded.value } };
}

/** Differences between the baseline's task digests and a rerun's. */
export interface IdentityComparison {
  missing: number[];
  unexpected: number[];
  mismatched: number[];
}

/** `assert_matching_task_hashes` as a value: missing counts only when the rerun must be complete. */
export function compareTaskHashes(
  baseline: ReadonlyMap<number, string>,
  rerun: ReadonlyMap<number, string>,
  options: { requireComplete: boolean },
): IdentityComparison {
  const byNumber = (a: number, b: number): number => a - b;
  return {
    unexpected: [...rerun.keys()].filter((i) => !baseline.has(i)).sort(byNumber),
    mismatched: [...rerun].filter(([i, d]) => baseline.has(i) && baseline.get(i) !== d).map(([i]) => i).sort(byNumber),
    missing: options.requireComplete ? [...baseline.keys()].filter((i) => !rerun.has(i)).sort(byNumber) : [],
  };
}

/**
 * The hard rule: a rerun whose manifests differ from the baseline's is not a comparable run. Throws
 * a `ConfigError` (the rerun ran against different data, seed or goals) instead of letting the
 * comparison be scored.
 */
export function assertRerunMatchesBaseline(
  baseline: ReadonlyMap<number, string>,
  rerun: ReadonlyMap<number, string>,
  options: { requireComplete: boolean },
): void {
  const diff = compareTaskHashes(baseline, rerun, options);
  if (diff.missing.length === 0 && diff.unexpected.length === 0 && diff.mismatched.length === 0) return;
  const list = (xs: number[]): string => JSON.stringify(xs.slice(0, 20));
  throw new ConfigError({
    message:
      `baseline/patched WebShop identity mismatch: missing=${list(diff.missing)}, unexpected=${list(diff.unexpected)}, mismatched=${list(diff.mismatched)}. ` +
      'The rerun did not see the same tasks as the baseline (different data, goal seed or price policy); its results cannot be compared.',
    field: 'webshopIdentity',
  });
}
