/**
 * The offline model: the scripted model (scripted-model.ts) served as a Gemini
 * API on 127.0.0.1 inside this process, started on first use, and the
 * environment that points the real Gemini CLI at it with a throw-away home (no
 * account, no settings or credentials of the user's). Both go when the process
 * exits.
 */
import { rmSync } from "node:fs";
import { scriptedTurn, startFakeGeminiApi } from "./gemini-api";
import { makeGeminiHome } from "./gemini-home";

let started: Promise<Record<string, string>> | undefined;

/**
 * Variables a user's own Gemini set-up may hold that would send the CLI
 * elsewhere (Vertex, Code Assist, a real key): blanked for the offline agent.
 */
const BLANKED = [
  "GOOGLE_API_KEY",
  "GOOGLE_GENAI_USE_VERTEXAI",
  "GOOGLE_GENAI_USE_GCA",
  "GOOGLE_CLOUD_PROJECT",
  "GOOGLE_APPLICATION_CREDENTIALS",
];

/** The environment a Gemini CLI needs to talk to the offline model; starts the model on first call. */
export function offlineGeminiEnv(): Promise<Record<string, string>> {
  started ??= (async () => {
    const api = await startFakeGeminiApi(0, { fallback: scriptedTurn, controls: false });
    // The agent keeps the process up while it runs; the model alone must not.
    api.unref();
    const home = makeGeminiHome(api.url, "acp-offline-gemini-");
    process.once("exit", () => rmSync(home.home, { recursive: true, force: true }));
    return {
      ...Object.fromEntries(BLANKED.map((name) => [name, ""])),
      ...home.env,
      GEMINI_API_KEY: "offline-model",
      // A proxy in the user's environment must not see (or refuse) calls to 127.0.0.1.
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
    };
  })();
  return started;
}
