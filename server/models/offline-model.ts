/**
 * The offline model: the scripted model (scripted-model.ts) served as a Gemini
 * API on 127.0.0.1 inside this process, started on first use, and the
 * environment that points the real Gemini CLI at it with a home of its own (no
 * account, no settings or credentials of the user's). The home is kept in the
 * data directory: a throw-away one per run would be left behind whenever the
 * agent outlives the server's exit by a moment.
 */
import path from "node:path";
import { scriptedTurn, startFakeGeminiApi } from "./gemini-api";
import { prepareGeminiHome } from "./gemini-home";

let api: Promise<string> | undefined;

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

/** The offline model's Gemini home, under the data directory. */
export const offlineGeminiHome = (dataDir: string) => path.join(dataDir, "offline-gemini-home");

/** The environment a Gemini CLI needs to talk to the offline model; starts the model on first call. */
export async function offlineGeminiEnv(dataDir: string): Promise<Record<string, string>> {
  api ??= startFakeGeminiApi(0, { fallback: scriptedTurn, controls: false }).then((server) => {
    // The agent keeps the process up while it runs; the model alone must not.
    server.unref();
    return server.url;
  });
  const url = await api;
  return {
    ...Object.fromEntries(BLANKED.map((name) => [name, ""])),
    ...prepareGeminiHome(offlineGeminiHome(dataDir), url),
    GEMINI_API_KEY: "offline-model",
    // A proxy in the user's environment must not see (or refuse) calls to 127.0.0.1.
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}
