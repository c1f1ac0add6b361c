export { compileHook, type CompileHookResult, type CompileRules } from './compile-hook.js';
export {
  createPythonHookProvider,
  type DroppedHook,
  type InstalledHook,
  type PythonHookProvider,
  type PythonHookProviderOptions,
  type PythonHookSource,
} from './python-hook-provider.js';
export { resolveSandboxOptions, type NetworkIsolationMode, type ResolvedSandboxOptions, type SandboxPoolOptions } from './sandbox-options.js';
export { buildWorkerArgs, detectNetworkProtection, permissionFlag, type NetworkProtection } from './worker-command.js';
export {
  createSandboxPool,
  type SandboxCallOutcome,
  type SandboxEpisode,
  type SandboxHookset,
  type SandboxPool,
  type SandboxPoolInfo,
  type SandboxWorkerInfo,
} from './worker-pool.js';
