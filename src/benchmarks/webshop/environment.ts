import { createWebShopEnvironment, type WebShopEnvironmentOptions } from '../../environments/webshop/webshop-environment.js';
import { playWith, type Environment } from '../../runtime/environment.js';
import { playWebShop } from './webshop-loop.js';
import { playWebShopText } from './webshop-text-loop.js';

/** WebShop goals played with the loop of the chosen protocol (function calling, or the v0.2 text protocol). */
export function webShopEnvironment(options: WebShopEnvironmentOptions): Environment {
  return options.protocol === 'v0.2'
    ? playWith(createWebShopEnvironment({ ...options, protocol: 'v0.2' }), playWebShopText)
    : playWith(createWebShopEnvironment({ ...options, protocol: 'fc' }), playWebShop);
}
