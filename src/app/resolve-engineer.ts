import type { Engineer } from '../engineer/engineer.js';
import { createLlmEngineer } from '../engineer/llm-engineer.js';
import { createSymbolicEngineer, type SymbolicSampling } from '../engineer/symbolic/index.js';
import { checkEngineerSpec, ENGINEER_SPEC_FORMS } from './check-specs.js';
import { createOpenAICompatibleModel, type OpenAICompatibleModel } from '../models/openai-compatible-model.js';
import { loadScriptedModelFile } from '../models/scripted-model.js';

export interface ResolvedEngineer {
  engineer: Engineer;
  /** The engineer's server, for the pre-flight check (OpenAI-compatible engineers only). */
  model?: OpenAICompatibleModel;
  close(): Promise<void>;
}

export { ENGINEER_SPEC_FORMS };

/**
 * Turns an engineer SPEC into an engineer: `symbolic` (built-in, offline, rule-based), an OpenAI-compatible
 * server (the reference prefill protocol: `<think>\n` prefill continued by the server, thinking on,
 * temperature 0, 12288 max tokens unless the SPEC says otherwise; with `engineer_protocol=auto`, the
 * default, a server that refuses the prefill request is asked in `full_think_patch` instead), or a
 * scripted file of answers.
 */
export async function resolveEngineer(spec: string, context: { dataDir?: string; sampling?: SymbolicSampling } = {}): Promise<ResolvedEngineer> {
  const parsed = checkEngineerSpec(spec);
  // Sampling (GRPO groups): the symbolic engineer's seeded draws; an LLM's temperature, top_p and seed.
  const sampling = context.sampling;
  const llmSampling = sampling === undefined ? {} : { temperature: sampling.temperature };
  switch (parsed.kind) {
    case 'symbolic':
      return { engineer: createSymbolicEngineer(sampling === undefined ? {} : { sampling }), close: async () => {} };
    case 'openai': {
      const choice = parsed.engineerProtocol ?? 'auto';
      // The same server asked without the prefill extensions (the user's own settings still apply).
      const plain = () => createOpenAICompatibleModel({ baseURL: parsed.baseURL, model: parsed.model, ...parsed.settings });
      if (choice === 'full') return { engineer: createLlmEngineer({ model: plain(), protocol: 'full_think_patch' }), close: async () => {} };
      const model = createOpenAICompatibleModel({
        baseURL: parsed.baseURL,
        model: parsed.model,
        continueFinalMessage: true,
        chatTemplateKwargs: { enable_thinking: true },
        ...parsed.settings,
        ...(sampling === undefined ? {} : { extraBody: { ...(parsed.settings.extraBody ?? {}), top_p: sampling.topP, seed: sampling.seed } }),
      });
      return {
        engineer: createLlmEngineer({ model, protocol: 'prefill_think_patch', ...llmSampling, ...(choice === 'auto' ? { fullThinkFallback: plain() } : {}) }),
        model,
        close: async () => {},
      };
    }
    case 'scripted':
      // A scripted engineer answers as an LLM would (the whole completion text after the prefill).
      return { engineer: createLlmEngineer({ model: loadScriptedModelFile(parsed.path), protocol: 'prefill_think_patch', ...llmSampling }), close: async () => {} };
  }
}
