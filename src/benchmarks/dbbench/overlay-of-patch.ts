import type { DbBenchOverlay } from '../../environments/dbbench/legacy-overlay.js';
import type { HarnessPatch } from '../../patch/index.js';

/** The legacy actions DBBench honours at run time: skills as tips, tool-hint edits (protocol.md §3.8). */
export function dbBenchOverlayOf(patch: HarnessPatch): DbBenchOverlay {
  return {
    skills: patch.actions.flatMap((a) => (a.type === 'add_or_edit_skill' ? [{ text: a.text, taskTypes: a.task_types }] : [])),
    toolEdits: patch.actions.flatMap((a) => (a.type === 'edit_tool_hint' ? [{ tool: a.tool, operation: a.operation, text: a.text }] : [])),
  };
}
