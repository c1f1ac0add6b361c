import { createAlfworldEnvironment, type AlfworldEnvironment, type AlfworldEnvironmentOptions } from '../../environments/alfworld/alfworld-environment.js';
import { playWith, type Environment } from '../../runtime/environment.js';
import { playAlfworld } from './alfworld-loop.js';
import { playAlfworldText } from './alfworld-text-loop.js';

/** ALFWorld games played with the loop of the chosen protocol (function calling, or the v0.2 text protocol). */
export function alfworldEnvironment(options: AlfworldEnvironmentOptions): Environment {
  const source = createAlfworldEnvironment(options);
  return options.protocol === 'v0.2' ? playWith(source, playAlfworldText) : playWith(source, playAlfworld);
}

/** The same, with the games the split lists (shipped and not shipped). */
export function alfworldEnvironmentWithGames(options: AlfworldEnvironmentOptions): { environment: Environment; games: AlfworldEnvironment['games'] } {
  const source = createAlfworldEnvironment(options);
  return { environment: options.protocol === 'v0.2' ? playWith(source, playAlfworldText) : playWith(source, playAlfworld), games: source.games };
}
