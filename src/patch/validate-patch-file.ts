/**
 * Validating a file: either a patch JSON (`protocol: 'patch'`, read like the original's `json.loads`)
 * or a raw engineer response (a response protocol). A missing or unreadable file is a usage error
 * (`ConfigError`); everything about the content is a verdict.
 */
import { readFile } from 'node:fs/promises';

import { ConfigError } from '../episode/errors.js';
import { isResponseProtocol, RESPONSE_PROTOCOLS, type ResponseProtocol } from './extract-patch-json.js';
import type { PatchVerdict } from './patch-types.js';
import { pyJsonLoads } from '../python/python-json.js';
import { reject } from './rejection.js';
import { validateEngineerResponse, validatePatch, type ValidatePatchOptions } from './validate-patch.js';

export type PatchFileProtocol = 'patch' | ResponseProtocol;
export const PATCH_FILE_PROTOCOLS: readonly PatchFileProtocol[] = ['patch', ...RESPONSE_PROTOCOLS];

export interface ValidatePatchFileOptions extends ValidatePatchOptions {
  /** `patch` (default): the file is the patch JSON. Otherwise the file is an engineer response. */
  protocol?: PatchFileProtocol;
}

/** Validates text as `validatePatchFile` would validate a file with this content. */
export async function validatePatchText(text: string, options: ValidatePatchFileOptions): Promise<PatchVerdict> {
  const protocol = options.protocol ?? 'patch';
  if (protocol !== 'patch') return validateEngineerResponse(text, { ...options, protocol });
  const parsed = pyJsonLoads(text);
  if (!parsed.ok) {
    const { error } = parsed;
    const rule = error.kind === 'decode' ? 'json_syntax' : error.kind === 'int_digits' ? 'json_int_too_long' : 'json_too_deep';
    return { kind: 'invalid', rejection: reject(rule, 'patch', error.message, { stage: 'extract', exception: error.exception }).rejection, notes: [] };
  }
  return validatePatch(parsed.value, options);
}

/** Reads `file` (UTF-8) and validates it. */
export async function validatePatchFile(file: string, options: ValidatePatchFileOptions): Promise<PatchVerdict> {
  const protocol = options.protocol ?? 'patch';
  if (protocol !== 'patch' && !isResponseProtocol(protocol)) {
    throw new ConfigError({ message: `Unknown protocol ${JSON.stringify(protocol)}.`, field: 'protocol', allowed: PATCH_FILE_PROTOCOLS });
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'cannot be read';
    throw new ConfigError({ message: `Patch file ${file} ${reason}.`, field: 'file', cause });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const rejection = reject('json_syntax', 'patch', `${file} is not valid UTF-8`, { stage: 'extract', exception: 'ValueError' });
    return { kind: 'invalid', rejection: rejection.rejection, notes: [] };
  }
  return validatePatchText(text, { ...options, protocol });
}
