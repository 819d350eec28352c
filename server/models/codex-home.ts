/**
 * A CODEX_HOME for Codex against a local Responses API (the offline model, the tests' fake):
 * config.toml with a model provider at the API (no login), asking before what its sandbox would
 * not allow, no update check or analytics (it passes Codex 0.171's `--strict-config`), and beside
 * it a model catalog that describes the model. Without one Codex knows nothing of a model it does
 * not ship, runs it on "fallback metadata" and says so in a `warning` notification at each turn's
 * start, at a moment of its own: before or after the turn/start response as its threads happen to
 * run, so two runs of the same session differed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The catalog's file name in CODEX_HOME. */
const CODEX_MODEL_CATALOG = "model-catalog.json";

/** What the model is told first, in place of Codex's own prompt: a scripted model reads none. */
const INSTRUCTIONS = "You are Codex, answered by a scripted model (ACP Playground's offline model or a test's fake).";

/**
 * Codex's own fallback for a model it does not know (codex-rs models-manager `model_info_from_slug`),
 * as a catalog entry: the same tools, reasoning and limits, minus the fallback's warning. Its prompt
 * is a line of ours (a catalog entry must name one; Codex's is its own). A field Codex 0.171 requires
 * and the fallback does not name has the value Codex's bundled models give it.
 */
function codexModelInfo(model: string): Record<string, unknown> {
  return {
    slug: model,
    display_name: model,
    description: null,
    default_reasoning_level: null,
    supported_reasoning_levels: [],
    shell_type: "default",
    visibility: "none",
    supported_in_api: true,
    priority: 99,
    additional_speed_tiers: [],
    service_tiers: [],
    default_service_tier: null,
    availability_nux: null,
    upgrade: null,
    base_instructions: INSTRUCTIONS,
    model_messages: null,
    include_skills_usage_instructions: false,
    include_apps_usage_instructions: false,
    include_plugin_usage_instructions: false,
    supports_reasoning_summaries: false,
    supports_reasoning_summary_parameter: true,
    default_reasoning_summary: "auto",
    support_verbosity: false,
    default_verbosity: null,
    apply_patch_tool_type: null,
    web_search_tool_type: "text",
    truncation_policy: { mode: "bytes", limit: 10_000 },
    supports_parallel_tool_calls: false,
    supports_image_detail_original: false,
    context_window: 272_000,
    max_context_window: 272_000,
    auto_compact_token_limit: null,
    comp_hash: null,
    effective_context_window_percent: 95,
    experimental_supported_tools: [],
    input_modalities: ["text", "image"],
    supports_search_tool: false,
    use_responses_lite: false,
    auto_review_model_override: null,
    tool_mode: null,
    multi_agent_version: null,
    prefer_websockets: false,
    model_specialty: null,
    node_repl_auto_review_required: false,
    node_repl_disabled: false,
    minimal_client_version: "0.0.0",
    available_in_plans: [],
  };
}

/** config.toml for `model` at the Responses API `url`, its catalog at `catalog`. */
function codexConfig(url: string, model: string, catalog: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "offline"',
    `model_catalog_json = ${JSON.stringify(catalog)}`,
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.offline]",
    'name = "offline model"',
    `base_url = "${url}/v1"`,
    'wire_api = "responses"',
    "requires_openai_auth = false",
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[analytics]",
    "enabled = false",
    "",
  ].join("\n");
}

/** Writes `codexHome` (made private) for `model` at `url`; `extra` is appended to config.toml. */
export function writeCodexHome(codexHome: string, url: string, model: string, extra = ""): void {
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  const catalog = path.join(codexHome, CODEX_MODEL_CATALOG);
  writeFileSync(catalog, JSON.stringify({ models: [codexModelInfo(model)] }));
  writeFileSync(path.join(codexHome, "config.toml"), codexConfig(url, model, catalog) + extra);
}
