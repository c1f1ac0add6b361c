/**
 * The two throwing families. Expected failures (bad model output, SQL errors, hook faults, rejected
 * patches) are values; only misconfiguration (`ConfigError`) and broken invariants (`InternalError`)
 * throw. Errors are identified by `code`, since some come back from worker processes as plain data.
 */
export interface HarnessErrorOptions {
  message: string;
  cause?: unknown;
}

export abstract class HarnessError extends Error {
  abstract readonly code: string;
  constructor(options: HarnessErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}

/** User misconfiguration: bad flags, config values, files or specs. The CLI exits with code 2. */
export class ConfigError extends HarnessError {
  readonly code = 'config_error' as const;
  readonly field: string | undefined;
  readonly allowed: readonly string[] | undefined;
  constructor(options: HarnessErrorOptions & { field?: string; allowed?: readonly string[] }) {
    const allowed = options.allowed && options.allowed.length > 0 ? ` Allowed: ${options.allowed.join(', ')}.` : '';
    super({ ...options, message: `${options.message}${allowed}` });
    this.field = options.field;
    this.allowed = options.allowed;
  }
}

/** A broken invariant inside harness-r1 itself. */
export class InternalError extends HarnessError {
  readonly code = 'internal_error' as const;
}

export function isHarnessError(value: unknown): value is HarnessError {
  return value instanceof Error && typeof (value as { code?: unknown }).code === 'string';
}
