export * from './chat-model.js';
export * from './fake-openai-server.js';
export * from './model-spec.js';
export * from './openai-compatible-model.js';
export * from './probe.js';
export * from './retry.js';
export * from './scripted-model.js';
export * from './wire-format.js';
