import type { ChatModel } from '../../models/chat-model.js';
import { reactModel } from './react.js';
import { selfRefineModel } from './self-refine.js';
import { trajectoryReflectionModel } from './trajectory-reflection.js';

/**
 * The baseline target strategies of the paper, after the release's AgentBench client agents: `react`
 * (a visible Thought, then one Action, one call per turn), `self_refine` (draft, critique, refined action:
 * two or three calls per turn), `reflection` (episode level: after a failed episode, a reflection and a
 * second episode with it in context, reported as success@2 and never ranked against success@1) and
 * `trajectory_reflection` (step level: a private reflection on the trajectory before every action, two
 * calls per turn, success@1).
 */
export const STRATEGY_NAMES = ['react', 'self_refine', 'reflection', 'trajectory_reflection'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** The model a loop talks to under a strategy (episode-level reflection plays its turns plainly; its retry is per episode). */
export function strategyModel(model: ChatModel, strategy: StrategyName | undefined): ChatModel {
  if (strategy === 'react') return reactModel(model);
  if (strategy === 'self_refine') return selfRefineModel(model);
  if (strategy === 'trajectory_reflection') return trajectoryReflectionModel(model);
  return model;
}
