/** Identity of one task: benchmark, split and absolute index in the split file. */
export interface TaskRef {
  bench: string;
  split: string;
  index: number;
}

export function taskKey(ref: TaskRef): string {
  return `${ref.bench}/${ref.split}/${ref.index}`;
}
