/** Standalone fake Gemini API: `tsx test/fake-gemini/main.ts [port]` (used by e2e and demos). */
import { startFakeGeminiApi } from "./server";

const api = await startFakeGeminiApi(Number(process.argv[2] ?? 0));
console.log(api.url);
const stop = () => void api.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
