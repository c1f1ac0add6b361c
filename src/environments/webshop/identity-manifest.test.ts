import { describe, expect, it } from 'vitest';

import { manifestSha256 } from './canonical-json.js';
import {
  assertRerunMatchesBaseline,
  batchManifestSha256,
  compareTaskHashes,
  extractInstruction,
  identityMetadata,
  taskManifest,
  validateIdentityMetadata,
  validateTaskManifest,
} from './identity-manifest.js';

const manifest = (index: number, seed = 233) =>
  taskManifest({
    goalSeed: seed,
    index,
    instructionSha256: manifestSha256(`instruction-${index}`),
    goalSha256: manifestSha256(new Map([['index', BigInt(index)]])),
    productPricesSha256: manifestSha256(new Map([['shared', true]])),
  });

describe('extractInstruction', () => {
  it('takes the text between "Instruction: [SEP]" and the next [SEP], stripped', () => {
    expect(extractInstruction('WebShop [SEP] Instruction: [SEP]  find a mug  [SEP] Search')).toBe('find a mug');
    expect(extractInstruction('Instruction:\nfind a mug\n\nmore')).toBe('find a mug');
    expect(extractInstruction('x'.repeat(400))).toHaveLength(300);
  });
});

describe('task manifests', () => {
  it('validate against their recomputed digest, index and seed', () => {
    expect(validateTaskManifest(manifest(4), { index: 4, goalSeed: 233 })).toEqual({ ok: true, value: manifest(4) });
    expect(validateTaskManifest({ ...manifest(4), goal_sha256: 'A'.repeat(64) })).toMatchObject({ ok: false, message: expect.stringMatching(/digest mismatch/) });
    expect(validateTaskManifest({ ...manifest(4), sha256: 'xyz' })).toMatchObject({ ok: false, message: 'task manifest sha256 must be a 64-character SHA256 digest' });
    expect(validateTaskManifest(manifest(4), { index: 5 })).toMatchObject({ ok: false, message: 'task manifest index mismatch: expected 5, got 4' });
    expect(validateTaskManifest(manifest(4, 1), { goalSeed: 233 })).toMatchObject({ ok: false, message: 'task manifest goal_seed mismatch: expected 233, got 1' });
    expect(validateTaskManifest({ ...manifest(4), protocol: 'v0' })).toMatchObject({ ok: false });
    expect(validateTaskManifest(undefined)).toEqual({ ok: false, message: 'missing webshop_task_manifest in rollout result' });
  });
});

describe('batch identity', () => {
  const manifests = [0, 1, 2].map((i) => manifest(i));

  it('is the hash of the (index, digest) pairs sorted by index, independent of input order', () => {
    const hashes = new Map(manifests.map((m) => [m.index, m.sha256]));
    const reversed = new Map([...hashes].reverse());
    expect(batchManifestSha256(233, reversed)).toBe(batchManifestSha256(233, hashes));
    const metadata = identityMetadata([...manifests].reverse(), { start: 0, end: 3, goalSeed: 233 });
    expect(metadata.ok && metadata.value.webshop_task_manifest_sha256).toBe(batchManifestSha256(233, hashes));
  });

  it('requires exactly the indices of the range', () => {
    expect(identityMetadata(manifests.slice(0, 2), { start: 0, end: 3, goalSeed: 233 })).toEqual({ ok: false, message: 'missing task manifests for indices: [2]' });
    expect(identityMetadata(manifests, { start: 0, end: 2, goalSeed: 233 })).toEqual({ ok: false, message: 'unexpected rollout index 2' });
    const metadata = identityMetadata(manifests, { start: 0, end: 3, goalSeed: 233 });
    if (!metadata.ok) throw new Error(metadata.message);
    expect(validateIdentityMetadata({ ...metadata.value, start: 0, end: 3 }).ok).toBe(true);
    expect(validateIdentityMetadata({ ...metadata.value, start: 0, end: 4 })).toMatchObject({ ok: false, message: 'task manifest index set mismatch; missing=[3], extra=[]' });
    expect(validateIdentityMetadata({ ...metadata.value, start: 3, end: 3 })).toMatchObject({ ok: false, message: 'invalid WebShop batch range [3, 3)' });
    expect(validateIdentityMetadata({ ...metadata.value, start: 0, end: 3, webshop_goal_seed: 1 })).toMatchObject({ ok: false, message: expect.stringMatching(/batch task manifest mismatch/) });
    expect(validateIdentityMetadata({ start: 0, end: 3 })).toMatchObject({ ok: false, message: expect.stringMatching(/no strict task identity/) });
  });

  it('makes a rerun with different manifests a hard error; an incomplete rerun only when completeness is required', () => {
    const baseline = new Map(manifests.map((m) => [m.index, m.sha256]));
    const partial = new Map([...baseline].slice(0, 2));
    expect(compareTaskHashes(baseline, partial, { requireComplete: false })).toEqual({ missing: [], unexpected: [], mismatched: [] });
    expect(() => assertRerunMatchesBaseline(baseline, partial, { requireComplete: true })).toThrow(/missing=\[2\]/);
    const changed = new Map(baseline).set(1, manifest(1, 7).sha256).set(9, manifest(9).sha256);
    expect(() => assertRerunMatchesBaseline(baseline, changed, { requireComplete: false })).toThrow(/unexpected=\[9\], mismatched=\[1\]/);
  });
});
