import type { DbBenchOverlay } from '../environments/dbbench/legacy-overlay.js';
import type { CodeHookName, HarnessPatch } from './patch-types.js';

/** The code hooks of a validated patch, in patch order (duplicates kept: the runtime runs them all). */
export function codeHooksOf(patch: HarnessPatch): { hook: CodeHookName; code: string }[] {
  return patch.actions.flatMap((a) => (a.type === 'add_code_hook' ? [{ hook: a.hook, code: a.code }] : []));
}

/** The legacy actions DBBench honours at run time: skills as tips, tool-hint edits (protocol.md §3.8). */
export function dbBenchOverlayOf(patch: HarnessPatch): DbBenchOverlay {
  return {
    skills: patch.actions.flatMap((a) => (a.type === 'add_or_edit_skill' ? [{ text: a.text, taskTypes: a.task_types }] : [])),
    toolEdits: patch.actions.flatMap((a) => (a.type === 'edit_tool_hint' ? [{ tool: a.tool, operation: a.operation, text: a.text }] : [])),
  };
}
