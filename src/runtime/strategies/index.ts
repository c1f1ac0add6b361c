export { STRATEGY_NAMES, strategyModel, type StrategyName } from './strategy.js';
export { reactModel, withReactBlock } from './react.js';
export { selfRefineModel, actionValidity, criticVerdict, candidateText, CRITIQUE_MAX_TOKENS, type RefineDecision } from './self-refine.js';
export { reflectAndRetry, memoryModel, withMemory, needsRetry, REFLECTION_MAX_TOKENS, type ReflectionDetail } from './reflection.js';
export { trajectoryReflectionModel, type TrajectoryDecision } from './trajectory-reflection.js';
export * from './strategy-prompts.js';
