import { definePromptTemplates, promptsDirOf } from '../../../engineer/prompt-templates.js';

/** The alfworld engineer prompt texts in `./prompts/`, pinned under the engine's PROMPT_VERSION. */
export const ALFWORLD_TEMPLATES = definePromptTemplates(promptsDirOf(import.meta.url), {
  'alfworld-system.v1.md': 'a0bf5ca305e837fa05d1c549843e9f739e1f36fcc2e2816730095c46b02911de',
  'alfworld-user.v1.md': '46e8019d5949334a37b2e89c0aab8dc6f6441940e90d8d8098910d7e516db866',
  'alfworld-schema.v1.md': '62dc296b1844cbe30e17fb1c9ba8b1b7756c9cb52fb8c748557440eccd373ef1',
});
