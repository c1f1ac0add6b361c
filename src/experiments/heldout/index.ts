export * from './build-results.js';
export * from './full-split.js';
export * from './heldout-paired.js';
export * from './pooled-arithmetic.js';
export * from './results-file.js';
export * from './results-schema.js';
