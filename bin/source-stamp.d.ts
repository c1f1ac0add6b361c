/** Files under `src/` that the build reads (path relative to `src/`). */
export function isBuildInput(relative: string): boolean;
/** The number of build inputs under `srcDir` and the newest modification time among them. */
export function sourceStamp(srcDir: string): { files: number; newestMs: number };
/** The stamp's file name inside `dist/`. */
export const STAMP_FILE: string;
/** Whether `<root>/dist` was built from `<root>/src` as it is now (its stamp agrees with the tree). */
export function builtFromCurrentSources(root: string): boolean;
