/**
 * Each Playwright worker has its own world: a server, fake model APIs, a workspace and a home
 * (started by e2e/global-setup.ts), so spec files run in parallel without sharing a scripted turn,
 * a transcript list or a file. The global setup hands world i to the worker with parallel index i
 * through one variable, which playwright.config.ts (loaded again in every worker) unpacks.
 */

/** What one worker's specs read from process.env. */
export type WorldEnv = Record<`E2E_${string}`, string>;

const worldVariable = (index: number) => `E2E_WORLD_${index}`;

/**
 * In the runner, after the global setup: the worlds for the workers to come. The runner itself
 * loads the specs too, to list their tests, and a describe block may name a path: it reads world 0.
 */
export function handOverWorlds(worlds: WorldEnv[]): void {
  worlds.forEach((env, i) => (process.env[worldVariable(i)] = JSON.stringify(env)));
  Object.assign(process.env, worlds[0]);
}

/** In a worker (Playwright has set TEST_PARALLEL_INDEX before loading the config): its world's variables. */
export function enterWorld(): void {
  const index = process.env.TEST_PARALLEL_INDEX;
  const world = index === undefined ? undefined : process.env[worldVariable(Number(index))];
  if (world) Object.assign(process.env, JSON.parse(world) as WorldEnv);
}
