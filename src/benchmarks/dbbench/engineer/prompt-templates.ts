import { definePromptTemplates, promptsDirOf } from '../../../engineer/prompt-templates.js';

/** The dbbench engineer prompt texts in `./prompts/`, pinned under the engine's PROMPT_VERSION. */
export const DBBENCH_TEMPLATES = definePromptTemplates(promptsDirOf(import.meta.url), {
  'dbbench-system-prefill.v1.md': '2d8a3dfd6fbd0ab763519315aec88fee9576bbb2df98b7ec78a430adc5000c3b',
  'dbbench-system-full.v1.md': '1ea30f05e5d6e25dc7918e8271efa6e53e449885dff9c43e1ac2356e5f3ca09a',
  'dbbench-user-prefill.v1.md': '76d37907e11a59c2c86d7832e3961115fb115cc136ea19f938161cb09e365fd5',
  'dbbench-user-full.v1.md': '8f63d4698cb83ebeef6cb6fdf600bbf183b11ca1d089e787f6a2c7a20829b384',
  'dbbench-schema.v1.md': '0a6cbdc27a120ba7fae114453c5499a8b41b6e9c9d31944e55a2dd5cacc105ee',
  'dbbench-runtime-context.v1.md': '4f2dc921ca091188a56223c655dd44a2e978b343d22647b5a25d30664fc960b3',
  'dbbench-revision.v1.md': 'b00a0a56d4b95488ca72c1c42061d9eebec3393ac1e43f21e4a55e74bf890c35',
});
