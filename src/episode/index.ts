export * from './errors.js';
export * from './hook-trace.js';
export * from './messages.js';
export * from './outcome.js';
export * from './record.js';
export * from './task.js';
export * from './reward-metric.js';
export * from './eval-status.js';
