import { definePromptTemplates, promptsDirOf } from '../../../engineer/prompt-templates.js';

/** The webshop engineer prompt texts in `./prompts/`, pinned under the engine's PROMPT_VERSION. */
export const WEBSHOP_TEMPLATES = definePromptTemplates(promptsDirOf(import.meta.url), {
  'webshop-system-full.v1.md': '2af8ebc59861c13ff0cbddf71c0ac25b928ea012e87d48e0ecb2ea7364450c9b',
  'webshop-system-prefill.v1.md': 'd85a055302fb2405ab78367ecfa63a905e2faca42ea4d8616535dd9b9b5a7e79',
  'webshop-scope.v1.md': 'fdc4b076383049e1c7348fc6b8834878d0d8a879ab4ecb3491bf2038bced19c3',
  'webshop-user-full.v1.md': 'd22af29fdd8cfcf2895dc83fa72bd14bf72baee0a08089b9656ca47a22266018',
  'webshop-user-prefill.v1.md': 'f3c7d23792bddf494e118fd78da6a4ca15081dcb2928dca5c8797f7560d0d0ca',
  'webshop-schema.v1.md': '81b3f91f8d07147d898eb1a42d11c615bd3219f03dd97a06ae9edd416a29e670',
});
