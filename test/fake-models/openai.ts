/**
 * The tests' fake OpenAI-compatible chat-completions API (OPENAI_BASE_URL=<url>/v1) for driving
 * agents such as Qwen Code offline: the wire shape is the offline model's (server/models/openai-api.ts);
 * the fake plays scripted turns, or echoes the user's last text.
 */
export { startOpenAiApi as startFakeOpenAiApi } from "../../server/models/openai-api";
export type { ModelTurn } from "./http";
