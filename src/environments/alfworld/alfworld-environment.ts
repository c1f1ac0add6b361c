import type { TaskRef, ToolCall, ToolSpec } from '../../episode/index.js';
import { ConfigError } from '../../episode/index.js';
import { type ActResult, type EffectRules, type Environment, type EnvironmentEpisode, type HookPoint, type ParsedCall, type TargetProtocol, parseToolCall } from '../environment.js';
import { createAlfworldGame, type AlfworldGame } from './alfworld-engine.js';
import { AlfworldEpisodeState, buildAlfworldHookContext } from './alfworld-hook-context.js';
import {
  ALFWORLD_BAD_CALL_REPLY,
  ALFWORLD_DEFAULT_MAX_STEPS,
  ALFWORLD_TEXT_ONLY_NUDGE,
  buildAlfworldFirstUserMessage,
  buildAlfworldSystemPrompt,
  buildAlfworldToolResult,
  loadAlfworldProtocol,
  withToolHints,
  type AlfworldProtocol,
} from './alfworld-prompts.js';
import { loadAlfworldGames, type AlfworldGameRecord } from './load-games.js';
import { loadAlfworldLogic, type AlfworldLogicSet, type AlfworldWording } from './load-logic.js';
import { agentBenchInitialObservation, stripArrivalPrefix } from './render-observation.js';
import { loadAlfworldSplit } from './splits.js';

export interface AlfworldEnvironmentOptions {
  /** The data folder holding `alfworld/` and `agentbench_prompts.json`. */
  dataDir: string;
  /** dev, standard, new_std or train_valid; only the games the data ships are played (see `AlfworldSplit.missing`). */
  split: string;
  /** Default `2.1.1`, what AgentBench's agents saw. */
  wording?: AlfworldWording;
  /** Steps per episode; default 50 (Harness-R1's `max_step`). */
  maxSteps?: number;
  /** fc (default, the take_action tool) or v0.2 (text, one-shot). */
  protocol?: TargetProtocol;
}

const ALFWORLD_RULES: EffectRules = { loop: 'alfworld' };

/**
 * ALFWorld over the in-process engine, played with AgentBench's function-calling protocol. Task `index`
 * is the position among the split's shipped games (split order); `info` records the game id and family.
 */
export function createAlfworldEnvironment(options: AlfworldEnvironmentOptions): Environment {
  if ((options.protocol ?? 'fc') !== 'fc') throw new ConfigError({ message: 'The alfworld v0.2 text protocol is not available yet.', field: 'protocol', allowed: ['fc'] });
  const games = loadAlfworldGames(options.dataDir);
  const split = loadAlfworldSplit(options.dataDir, options.split, games);
  const logic = loadAlfworldLogic(options.dataDir);
  const protocol = loadAlfworldProtocol(options.dataDir);
  const wording = options.wording ?? '2.1.1';
  const maxSteps = options.maxSteps ?? ALFWORLD_DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new ConfigError({ message: `maxSteps must be a positive integer, got ${maxSteps}.`, field: 'maxSteps' });
  }
  return {
    bench: 'alfworld',
    split: options.split,
    size: split.available.length,
    openEpisode(index) {
      const item = split.available[index];
      if (!item) {
        return Promise.reject(new ConfigError({ message: `Task index ${index} is outside the split (0..${split.available.length - 1}).`, field: 'tasks' }));
      }
      const task: TaskRef = { bench: 'alfworld', split: options.split, index };
      return Promise.resolve(new AlfworldEpisode(task, item.game, item.entry.family, { wording, logic }, protocol, maxSteps));
    },
    close: () => Promise.resolve(),
  };
}

/** process_action: trims, lower-cases and collapses whitespace; `put X in Y` / `put X on Y` become `put X in/on Y` when that is admissible. */
export function processAlfworldAction(output: string, admissible: readonly string[]): string {
  let text = output.trim().replace(/\s+/g, ' ').toLowerCase();
  text = text.replace(/^action:\s*/, '').replace(/[.!]+$/, '');
  if (admissible.includes(text)) return text;
  const put = /^put (.+?) (?:in|on|in\/on|into|onto) (.+)$/.exec(text);
  if (put) {
    const candidate = `put ${put[1]} in/on ${put[2]}`;
    if (admissible.includes(candidate)) return candidate;
  }
  return text;
}

class AlfworldEpisode implements EnvironmentEpisode {
  readonly rules = ALFWORLD_RULES;
  readonly info: Record<string, unknown>;
  private currentTools: ToolSpec[];
  private readonly game: AlfworldGame;
  private readonly state: AlfworldEpisodeState;
  private readonly initialObservation: string;
  private readonly initialAdmissible: string[];

  constructor(
    readonly task: TaskRef,
    record: AlfworldGameRecord,
    family: string,
    options: { wording: AlfworldWording; logic: AlfworldLogicSet },
    private readonly protocol: AlfworldProtocol,
    readonly maxRounds: number,
  ) {
    this.game = createAlfworldGame(record, options);
    const reset = this.game.reset();
    this.initialObservation = agentBenchInitialObservation(reset.observation);
    this.initialAdmissible = reset.admissible;
    this.currentTools = [...protocol.tools];
    this.info = { gameId: record.id, family, taskType: record.taskType };
    this.state = new AlfworldEpisodeState(record.taskType, record.goal, this.initialObservation, reset.admissible);
  }

  get tools(): ToolSpec[] {
    return this.currentTools;
  }

  systemPrompt(init: { skills: string[]; toolHints: string[] }): string {
    this.currentTools = withToolHints(this.protocol.tools, init.toolHints);
    return buildAlfworldSystemPrompt(this.protocol.systemPrompt, init.skills);
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
    return Promise.resolve({ content: buildAlfworldToolResult(observation, result.admissible), observation, won: result.won });
  }

  parseCall(call: ToolCall): ParsedCall | undefined {
    return parseToolCall(call);
  }


  /** The reference reads the first argument of the first call whatever the tool's name. */
  hasTool(): boolean {
    return true;
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
