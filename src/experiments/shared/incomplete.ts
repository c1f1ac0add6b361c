import { HarnessError } from '../../episode/index.js';

/**
 * Episodes of an experiment still failed for infrastructure reasons after the bounded retries: its
 * figures would be missing evaluations, so none are written. Running the same command again resumes it.
 */
export class IncompleteExperimentError extends HarnessError {
  readonly code = 'incomplete_experiment' as const;
}
