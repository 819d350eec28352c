/**
 * The tests' fake OpenAI Responses API for driving Codex offline (a custom model provider with
 * `wire_api = "responses"`): the wire shape is the offline model's (server/models/responses-api.ts);
 * the fake plays scripted turns, or echoes the user's last text.
 */
export { RESPONSES_USAGE, startResponsesApi as startFakeResponsesApi } from "../../server/models/responses-api";
