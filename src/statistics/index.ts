export * from './format-statistics.js';
export * from './mcnemar.js';
export * from './mersenne-twister.js';
export * from './paired-bootstrap.js';
export * from './paired-summary.js';
export * from './seed-spread.js';
export * from './seeded-sample.js';
