import type { ChatMessage, TaskRef, ToolCall, ToolSpec } from '../../episode/index.js';
import { ConfigError, userMessage } from '../../episode/index.js';
import { type ActResult, type EpisodeSource, type ToolEpisode, type HookPoint, type ParsedCall, type TargetProtocol, parseToolCall } from '../environment.js';
import { createAlfworldGame, type AlfworldGame } from './alfworld-engine.js';
import { cleanActionText, mapToAdmissible } from './bleu.js';
import { AlfworldEpisodeState, buildAlfworldHookContext } from './alfworld-hook-context.js';
import {
  ALFWORLD_BAD_CALL_REPLY,
  ALFWORLD_DEFAULT_MAX_STEPS,
  ALFWORLD_TEXT_DEFAULT_MAX_STEPS,
  ALFWORLD_TEXT_ONLY_NUDGE,
  alfworldOneShot,
  buildAlfworldFirstUserMessage,
  buildAlfworldTextInstruction,
  buildAlfworldTextObservation,
  loadAlfworldTextProtocol,
  buildAlfworldSystemPrompt,
  buildAlfworldToolResult,
  loadAlfworldProtocol,
  withToolHints,
  type AlfworldProtocol,
  type AlfworldTextProtocol,
} from './alfworld-prompts.js';
import type { AlfworldGameRecord } from './load-games.js';
import { loadAlfworldLogic, type AlfworldLogicSet, type AlfworldWording } from './load-logic.js';
import { agentBenchInitialObservation, stripArrivalPrefix } from './render-observation.js';
import { alfworldGamesFileSplit, loadAlfworldSplitGames, type AlfworldSplit } from './splits.js';
import { ALFWORLD_PROMPT_KEY_OF } from './task-families.js';

export interface AlfworldEnvironmentOptions {
  /** The data folder holding `alfworld/` and `agentbench_prompts.json`. */
  dataDir: string;
  /** dev, standard, new_std or train_valid; only the games the data ships are played (see `AlfworldSplit.missing`). */
  split: string;
  /** Default `2.1.1`, what AgentBench's agents saw. */
  wording?: AlfworldWording;
  /** Steps per episode; default 50 for fc (Harness-R1's `max_step`), 35 for v0.2 (AgentBench v0.2's). */
  maxSteps?: number;
  /** fc (default, the take_action tool) or v0.2 (text, one-shot). */
  protocol?: TargetProtocol;
  /** A games file (the shipped format) to play instead of a named split, in file order; `split` is then its label. */
  gamesFile?: string;
}

/** An ALFWorld environment, with the games it plays and those its split lists but the data does not ship. */
export interface AlfworldEnvironment extends EpisodeSource<AlfworldEpisode> {
  readonly games: AlfworldSplit;
}

/**
 * ALFWorld over the in-process engine, played with AgentBench's function-calling protocol (`fc`, loop
 * `alfworld`) or its v0.2 text protocol (`v0.2`, loop `alfworld-text`, no tools). Task `index` is the
 * position among the split's shipped games (split order); `info` records the game id and family.
 */
export function createAlfworldEnvironment(options: AlfworldEnvironmentOptions): AlfworldEnvironment {
  const mode = options.protocol ?? 'fc';
  if (mode !== 'fc' && mode !== 'v0.2') throw new ConfigError({ message: `Unknown alfworld protocol '${String(mode)}'.`, field: 'protocol', allowed: ['fc', 'v0.2'] });
  const split = options.gamesFile !== undefined ? alfworldGamesFileSplit(options.gamesFile, options.split) : loadAlfworldSplitGames(options.dataDir, options.split);
  const logic = loadAlfworldLogic(options.dataDir);
  const protocol = loadAlfworldProtocol(options.dataDir);
  const text = mode === 'v0.2' ? loadAlfworldTextProtocol(options.dataDir) : undefined;
  const wording = options.wording ?? '2.1.1';
  const maxSteps = options.maxSteps ?? (text ? ALFWORLD_TEXT_DEFAULT_MAX_STEPS : ALFWORLD_DEFAULT_MAX_STEPS);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new ConfigError({ message: `maxSteps must be a positive integer, got ${maxSteps}.`, field: 'maxSteps' });
  }
  return {
    bench: 'alfworld',
    split: options.split,
    size: split.available.length,
    games: split,
    openEpisode(index) {
      const item = split.available[index];
      if (!item) {
        return Promise.reject(new ConfigError({ message: `Task index ${index} is outside the split (0..${split.available.length - 1}).`, field: 'tasks' }));
      }
      const task: TaskRef = { bench: 'alfworld', split: options.split, index };
      return Promise.resolve(new AlfworldEpisode(task, item.game, item.entry.family, { wording, logic }, protocol, maxSteps, text));
    },
    close: () => Promise.resolve(),
  };
}

/**
 * process_action (both protocols): AgentBench's cleaning (strip, lower-case, first line); an admissible text is
 * kept; then, as a harness addition, `put X in Y` / `put X on Y` becomes `put X in/on Y` when that is
 * admissible; then the nearest admissible command by NLTK-3.8 sentence BLEU (method 4) when its score is above
 * 0.01; otherwise the cleaned text, which the game answers with "Nothing happens.".
 */
export function processAlfworldAction(output: string, admissible: readonly string[]): string {
  const text = cleanActionText(output);
  if (admissible.includes(text)) return text;
  // No line terminator is left after the whitespace collapse, so the lazy group is tried once per space and
  // `(.+)$` always reaches the end: linear. The trailing-punctuation strip is a scan (`[.!]+$` is quadratic).
  const put = /^put (.+?) (?:in|on|in\/on|into|onto) (.+)$/.exec(stripTrailingPunctuation(text.trim().replace(/\s+/g, ' ')));
  if (put) {
    const candidate = `put ${put[1]} in/on ${put[2]}`;
    if (admissible.includes(candidate)) return candidate;
  }
  return mapToAdmissible(text, admissible).action;
}

/** `text.replace(/[.!]+$/, '')`. */
function stripTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || text[end - 1] === '!')) end--;
  return text.slice(0, end);
}

export class AlfworldEpisode implements ToolEpisode {
  readonly info: Record<string, unknown>;
  private currentTools: ToolSpec[];
  private readonly game: AlfworldGame;
  private readonly state: AlfworldEpisodeState;
  private readonly initialObservation: string;
  private readonly initialAdmissible: string[];
  private readonly oneShotKey: string;

  constructor(
    readonly task: TaskRef,
    record: AlfworldGameRecord,
    family: string,
    options: { wording: AlfworldWording; logic: AlfworldLogicSet },
    private readonly protocol: AlfworldProtocol,
    readonly maxRounds: number,
    /** The v0.2 texts when the episode plays the text protocol. */
    private readonly text?: AlfworldTextProtocol,
  ) {
    this.game = createAlfworldGame(record, options);
    const reset = this.game.reset();
    this.initialObservation = agentBenchInitialObservation(reset.observation);
    this.initialAdmissible = reset.admissible;
    this.oneShotKey = ALFWORLD_PROMPT_KEY_OF[record.taskType];
    this.currentTools = text ? [] : [...protocol.tools];
    this.info = { gameId: record.id, family, taskType: record.taskType };
    this.state = new AlfworldEpisodeState(record.taskType, record.goal, this.initialObservation, reset.admissible);
  }

  get tools(): ToolSpec[] {
    return this.currentTools;
  }

  systemPrompt(init: { skills: string[]; toolHints: string[] }): string {
    if (this.text) return buildAlfworldTextInstruction(this.text.instruction, init.skills, init.toolHints);
    this.currentTools = withToolHints(this.protocol.tools, init.toolHints);
    return buildAlfworldSystemPrompt(this.protocol.systemPrompt, init.skills);
  }

  /**
   * The v0.2 opening, as AgentBench assembles it: the instruction (with on_init tips and action hint), the
   * agent's "OK. I'll follow…", the family's one-shot turns (user first, "Here is one example." in front),
   * then the task message. Only for the text protocol.
   */
  openingMessages(init: { skills: string[]; toolHints: string[] }): ChatMessage[] {
    if (!this.text) throw new ConfigError({ message: 'openingMessages is for the v0.2 text protocol.', field: 'protocol' });
    const shot = alfworldOneShot(this.text, this.oneShotKey).map((content, i): ChatMessage => (i % 2 === 0 ? userMessage(content) : { role: 'assistant', content }));
    return [userMessage(this.systemPrompt(init)), { role: 'assistant', content: this.text.agentReply }, ...shot, userMessage(this.firstUserMessage())];
  }

  firstUserMessage(): string {
    return buildAlfworldFirstUserMessage(this.initialObservation, this.initialAdmissible);
  }

  /** The generic call sites mapped onto the ALFWorld ctx (the loop uses `alfworldContext`). */
  hookContext(point: HookPoint): Record<string, unknown> {
    const raw = 'call' in point && typeof point.call.firstValue === 'string' ? point.call.firstValue : '';
    const step = Math.max(0, point.round - 1);
    return this.alfworldContext({ hook: point.hook, step, remaining: point.remaining, raw, finalAction: raw === '' ? '' : this.processAction(raw) });
  }

  alfworldContext(point: { hook: 'on_init' | 'make_pre_hint' | 'on_before_action' | 'on_post_step'; step: number; remaining: number; raw: string; finalAction: string }): Record<string, unknown> {
    return buildAlfworldHookContext({ ...point, maxStep: this.maxRounds }, this.state);
  }

  processAction(output: string): string {
    return processAlfworldAction(output, this.state.admissible);
  }

  stepAction(action: string): Promise<{ content: string; observation: string; won: boolean }> {
    const result = this.game.step(action);
    const observation = stripArrivalPrefix(result.observation);
    this.state.update(action, observation, result.admissible);
    const content = this.text ? buildAlfworldTextObservation(observation, result.admissible) : buildAlfworldToolResult(observation, result.admissible);
    return Promise.resolve({ content, observation, won: result.won });
  }

  parseCall(call: ToolCall): ParsedCall | undefined {
    return parseToolCall(call);
  }


  /** The reference reads the first argument of the first call whatever the tool's name (no tools in v0.2). */
  hasTool(_name?: string): boolean {
    return !this.text;
  }

  async act(call: ParsedCall): Promise<ActResult> {
    const raw = typeof call.firstValue === 'string' ? call.firstValue : JSON.stringify(call.firstValue);
    const step = await this.stepAction(this.processAction(raw));
    if (step.won) return { kind: 'final', correct: true, detail: { won: true } };
    return { kind: 'observation', content: step.content, status: 'executed' };
  }

  noteTextOnlyTurn(): void {}

  noteToolTurn(): void {}

  textOnlyNudge(): string {
    return ALFWORLD_TEXT_ONLY_NUDGE;
  }

  badArgumentsReply(): string {
    return ALFWORLD_BAD_CALL_REPLY;
  }

  unknownToolReply(): string {
    return ALFWORLD_BAD_CALL_REPLY;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
