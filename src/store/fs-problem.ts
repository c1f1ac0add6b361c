import { ConfigError } from '../episode/index.js';

/** What an errno from the file system means for the user, in words. */
const PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a file is where a directory should be',
  EEXIST: 'a file is where a directory should be',
  EISDIR: 'a directory is where a file should be',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOENT: 'no such file or directory',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
};

/** A Node file-system error (it carries an errno code and, usually, the path and the call). */
export function isFsError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string' && /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!);
}

/**
 * A file-system error as a ConfigError naming the path and the problem (`what` says what the path is for,
 * e.g. "the run directory"), so the CLI prints one line and exits 2 instead of a stack trace.
 */
export function fsProblem(error: NodeJS.ErrnoException & { code: string }, what?: string, fallbackPath?: string): ConfigError {
  const file = error.path ?? fallbackPath ?? '(unknown path)';
  const problem = describeFsError(error);
  const target = (error as { dest?: unknown }).dest;
  const dest = typeof target === 'string' ? ` → ${target}` : '';
  return new ConfigError({ message: `Cannot use ${what ? `${what} ` : ''}${file}${dest}: ${problem}.`, field: 'path', cause: error });
}

/** The problem of a file-system error in words, with its code: "permission denied (EACCES)". */
export function describeFsError(error: NodeJS.ErrnoException & { code: string }): string {
  return `${PROBLEMS[error.code] ?? `${error.code}${error.syscall ? ` in ${error.syscall}` : ''}`} (${error.code})`;
}

/** Runs `work`, turning a file-system error into a ConfigError that names the path and the problem. */
export function withFsProblems<T>(what: string, work: () => T, fallbackPath?: string): T {
  try {
    return work();
  } catch (error) {
    if (isFsError(error)) throw fsProblem(error, what, fallbackPath);
    throw error;
  }
}
