/**
 * The tests' fake Anthropic Messages API (ANTHROPIC_BASE_URL=<url>) for driving Claude's ACP
 * adapter offline: the wire shape is the offline model's (server/models/anthropic-api.ts); the
 * fake plays scripted turns, or echoes the user's last text.
 */
export { startAnthropicApi as startFakeAnthropicApi } from "../../server/models/anthropic-api";
export type { ModelTurn } from "./http";
