/**
 * One teacher answer for one packet and sample, asked once and kept in
 * `<out>/<bench>/answers/<batch_tag>/sample_<k>.json` (written whole or not at all), so a resumed export
 * asks again only what is missing. A stored answer is reused only for the same teacher, sampling and prompt.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Engineer } from '../../engineer/engineer.js';
import { isEngineerPromptProtocol, type EngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import { isNoSignatureResult } from '../../engineer/symbolic/symbolic-engineer.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import type { TrainingPacket } from '../rows/training-batches.js';
import { writeFileAtomic } from '../rows/write-atomic.js';
import { symbolicAnswerText } from './symbolic-answer.js';

export const ANSWERS_DIR = 'answers';
const ANSWER_VERSION = 'harness-r1-sft-answer-v1';

/** What a teacher gave: text in a response protocol, nothing to patch, or no answer at all. */
export type TeacherAnswer =
  | { kind: 'text'; text: string; protocol: EngineerPromptProtocol; notes: string[] }
  | { kind: 'no_patch'; notes: string[] }
  | { kind: 'failed'; detail: string };

export interface AnswerKey {
  teacherSpec: string;
  teacherLabel: string;
  sample: number;
  sampling: { temperature: number; topP: number; seed: number };
  /** The prompt the packet's rows carry (`prompt_sha256`). */
  promptSha256: string;
}

interface StoredAnswer extends AnswerKey {
  version: typeof ANSWER_VERSION;
  answer: TeacherAnswer;
}

export function answerFile(benchDir: string, batchTag: string, sample: number): string {
  return path.join(benchDir, ANSWERS_DIR, batchTag, `sample_${sample}.json`);
}

/** The teacher's answer for a packet, from the store when the same teacher, sampling and prompt answered it. */
export async function teacherAnswer(teacher: Engineer, packet: TrainingPacket, key: AnswerKey, rowProtocol: EngineerPromptProtocol, benchDir: string): Promise<{ answer: TeacherAnswer; stored: boolean }> {
  const file = answerFile(benchDir, packet.batchTag, key.sample);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredAnswer;
    const { version, answer, ...storedKey } = stored;
    if (version === ANSWER_VERSION && canonicalJson(storedKey) === canonicalJson(key)) return { answer, stored: true };
  }
  const answer = await ask(teacher, packet, rowProtocol);
  const record: StoredAnswer = { version: ANSWER_VERSION, ...key, answer };
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  return { answer, stored: false };
}

async function ask(teacher: Engineer, packet: TrainingPacket, rowProtocol: EngineerPromptProtocol): Promise<TeacherAnswer> {
  const result = await teacher.propose(packet.input);
  if (result.status === 'request_failed') return { kind: 'failed', detail: result.detail };
  const notes = result.notes ?? [];
  if (result.proposal.kind === 'patch') {
    // The symbolic engineer: its no-signature soft-hint fallback is not evidence-based, so it counts as no patch.
    if (result.proposal.patch === null || isNoSignatureResult(result)) return { kind: 'no_patch', notes };
    return { kind: 'text', text: symbolicAnswerText(notes, result.proposal.patch, rowProtocol), protocol: rowProtocol, notes };
  }
  const protocol = result.proposal.protocol;
  if (!isEngineerPromptProtocol(protocol)) return { kind: 'text', text: result.proposal.text, protocol: rowProtocol, notes: [...notes, `answered in ${protocol}; read as ${rowProtocol}`] };
  return { kind: 'text', text: result.proposal.text, protocol, notes };
}
