import type { ToolSpec } from '../../episode/index.js';

/**
 * The legacy (DSL) patch actions DBBench honours at run time (protocol.md §3.8): skills become cold-start
 * tips (at most 3, filtered by task type unless a skill lists `*`), and tool-hint edits change the tool
 * descriptions. Guard and recovery rules are never evaluated on DBBench.
 */
export interface DbBenchOverlay {
  skills: { text: string; taskTypes: string[] }[];
  toolEdits: { tool: string; operation: 'append' | 'prepend' | 'replace'; text: string }[];
}

export const MAX_OVERLAY_TIPS = 3;

/** Tips for one task: skills whose task types include `*` or the task's type (case-insensitive), first three. */
export function overlayTips(overlay: DbBenchOverlay | undefined, taskType: string): string[] {
  if (!overlay) return [];
  const type = taskType.toLowerCase();
  return overlay.skills
    .filter((s) => s.taskTypes.length === 0 || s.taskTypes.some((t) => t === '*' || t.toLowerCase() === type))
    .slice(0, MAX_OVERLAY_TIPS)
    .map((s) => s.text);
}

/** Tool specs with the overlay's description edits applied in patch order (append: trimmed old text, a space, new text). */
export function applyToolEdits(tools: readonly ToolSpec[], overlay: DbBenchOverlay | undefined): ToolSpec[] {
  if (!overlay || overlay.toolEdits.length === 0) return [...tools];
  return tools.map((tool) => {
    let description = tool.description;
    for (const edit of overlay.toolEdits) {
      if (edit.tool !== tool.name) continue;
      if (edit.operation === 'append') description = `${description.trimEnd()} ${edit.text}`;
      else if (edit.operation === 'prepend') description = `${edit.text} ${description}`;
      else description = edit.text;
    }
    return { ...tool, description };
  });
}
