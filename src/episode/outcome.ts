/**
 * How an episode ended. Agent-caused endings are results about the target; infrastructure-caused endings
 * mean the episode says nothing about the target and must never be counted as a target failure.
 */
export const AGENT_OUTCOMES = ['success', 'wrong_answer', 'round_limit', 'invalid_action'] as const;
export const INFRA_OUTCOMES = ['model_error', 'env_error', 'hook_fault'] as const;

export type AgentOutcome = (typeof AGENT_OUTCOMES)[number];
export type InfraOutcome = (typeof INFRA_OUTCOMES)[number];
export type Outcome = AgentOutcome | InfraOutcome;

export function isInfraOutcome(outcome: Outcome): outcome is InfraOutcome {
  return (INFRA_OUTCOMES as readonly string[]).includes(outcome);
}

export function isAgentOutcome(outcome: Outcome): outcome is AgentOutcome {
  return (AGENT_OUTCOMES as readonly string[]).includes(outcome);
}
