// Regenerates lib/protocol/app-server-schema.json from the pinned Codex (test/agents): the JSON Schema
// of its app-server protocol as `codex app-server generate-json-schema` writes it, reduced to what
// the playground reads: the Codex version, a method table per direction with each method's params
// and result definitions, the definition of an error response's `error`, and one `$defs` map (the
// bundle's `definitions` and `definitions.v2` flattened, refs rewritten to `#/$defs/...`) holding
// only what those reach.
//   npm run schema:app-server
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const codex = path.join(root, "test", "agents", "node_modules", ".bin", "codex");
const outFile = path.join(root, "lib", "protocol", "app-server-schema.json");

/**
 * The bundle names no request's response: Codex's source pairs them (`params: XParams, response:
 * XResponse`). Most follow that rule; these do not (requests without params, shared responses).
 * A request this rule and table leave without a response, or a response no request takes, fails
 * the script: read the pairs in Codex's `client_request_definitions!` and extend the table.
 */
const RESPONSE_OF = {
  "account/gatewayOAuth/cancel": "GatewayOAuthCancelResponse",
  "account/logout": "LogoutAccountResponse",
  "account/securitySetup/read": "GetAccountSecuritySetupResponse",
  "account/workspaceMessages/read": "GetWorkspaceMessagesResponse",
  "config/batchWrite": "ConfigWriteResponse",
  "config/mcpServer/reload": "McpServerRefreshResponse",
  "config/value/write": "ConfigWriteResponse",
  "configRequirements/read": "ConfigRequirementsReadResponse",
  "externalAgentConfig/import/readHistories": "ExternalAgentConfigImportHistoriesReadResponse",
  // 0.171 answers it as a config write (status, version, filePath), observed.
  "modelProvider/default/set": "ConfigWriteResponse",
  "windowsSandbox/readiness": "WindowsSandboxReadinessResponse",
};

/** Definitions in the bundle that are no method's params or result. */
const NOT_A_RESPONSE = new Set(["JSONRPCResponse"]);

/** An error response's `error`, whatever it answers. */
const ERROR_DEF = "JSONRPCErrorError";

const fail = (message) => {
  throw new Error(`app-server schema: ${message}`);
};

function codexVersion() {
  const out = execFileSync(codex, ["--version"], { encoding: "utf8" }).trim();
  const m = /(\d+\.\d+\.\d+\S*)$/.exec(out);
  if (!m) fail(`cannot read the version in ${JSON.stringify(out)}`);
  return m[1];
}

function generate() {
  const dir = mkdtempSync(path.join(tmpdir(), "app-server-schema-"));
  try {
    execFileSync(codex, ["app-server", "generate-json-schema", "--out", dir], { stdio: "ignore" });
    return JSON.parse(readFileSync(path.join(dir, "codex_app_server_protocol.schemas.json"), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SCHEMA_MAPS = new Set(["properties", "definitions", "patternProperties"]);
const SCHEMA_VALUES = new Set(["items", "additionalProperties", "not"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf"]);

/** A schema with refs rewritten and `$schema` dropped (a definition's own `title` repeats its name). */
function clean(schema, topLevel = false) {
  if (typeof schema !== "object" || schema === null) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || (topLevel && key === "title")) continue;
    if (key === "$ref") out.$ref = `#/$defs/${refName(value)}`;
    else if (SCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
    else if (SCHEMA_VALUES.has(key)) out[key] = clean(value);
    else if (SCHEMA_LISTS.has(key)) out[key] = value.map((v) => clean(v));
    else out[key] = value;
  }
  return out;
}

function refName(ref) {
  const m = /^#\/definitions\/(?:v2\/)?([^/]+)$/.exec(ref);
  if (!m) fail(`unexpected $ref ${ref}`);
  return m[1];
}

/** `definitions` and `definitions.v2` as one map; a name in both must mean the same thing. */
function flatten(bundle) {
  const { v2, ...top } = bundle.definitions;
  const defs = {};
  for (const [name, def] of [...Object.entries(top), ...Object.entries(v2)]) {
    const cleaned = clean(def, true);
    if (name in defs && JSON.stringify(defs[name]) !== JSON.stringify(cleaned))
      fail(`${name} is defined twice, differently`);
    defs[name] = cleaned;
  }
  return defs;
}

/** A method's `params`: a definition, optional (absent or null also fits), or none at all. */
function paramsOf(variant, method) {
  const schema = variant.properties.params;
  const required = variant.required.includes("params");
  if (schema === undefined || schema.type === "null") return {};
  if (schema.$ref)
    return required ? { params: refName(schema.$ref) } : { params: refName(schema.$ref), optional: true };
  const alts = schema.anyOf ?? [];
  const ref = alts.find((a) => a.$ref);
  if (alts.length === 2 && ref && alts.some((a) => a.type === "null"))
    return { params: refName(ref.$ref), optional: true };
  fail(`${method}: params of an unexpected shape ${JSON.stringify(schema)}`);
}

function methodsOf(bundle, union, defs, withResult) {
  const table = {};
  for (const variant of bundle.definitions[union].oneOf) {
    const method = variant.properties.method.enum?.[0];
    if (typeof method !== "string") fail(`${union}: a variant without a method`);
    const entry = paramsOf(variant, method);
    if (entry.params && !(entry.params in defs)) fail(`${method}: no definition ${entry.params}`);
    if (withResult) {
      const result = RESPONSE_OF[method] ?? entry.params?.replace(/Params$/, "Response");
      if (!result || !(result in defs)) fail(`${method}: no response definition (extend RESPONSE_OF)`);
      entry.result = result;
    }
    table[method] = entry;
  }
  return table;
}

/** The definitions the roots reach through `$ref`s. */
function reachable(defs, roots) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    if (!(name in defs)) fail(`unresolved reference ${name}`);
    seen.add(name);
    JSON.stringify(defs[name], (key, value) => {
      if (key === "$ref") visit(value.slice("#/$defs/".length));
      return value;
    });
  };
  roots.forEach(visit);
  return seen;
}

function build() {
  const bundle = generate();
  const defs = flatten(bundle);
  const methods = {
    clientRequests: methodsOf(bundle, "ClientRequest", defs, true),
    clientNotifications: methodsOf(bundle, "ClientNotification", defs, false),
    serverRequests: methodsOf(bundle, "ServerRequest", defs, true),
    serverNotifications: methodsOf(bundle, "ServerNotification", defs, false),
  };
  const results = new Set(
    [methods.clientRequests, methods.serverRequests].flatMap((t) => Object.values(t).map((e) => e.result)),
  );
  const unpaired = Object.keys(defs).filter((n) => n.endsWith("Response") && !NOT_A_RESPONSE.has(n) && !results.has(n));
  if (unpaired.length) fail(`responses no request takes: ${unpaired.join(", ")} (extend RESPONSE_OF)`);
  if (!(ERROR_DEF in defs)) fail(`no definition ${ERROR_DEF}`);
  const roots = Object.values(methods).flatMap((t) => Object.values(t).flatMap((e) => [e.params, e.result]));
  const keep = reachable(defs, [ERROR_DEF, ...roots.filter(Boolean)]);
  const kept = Object.fromEntries(
    Object.keys(defs)
      .filter((n) => keep.has(n))
      .sort()
      .map((n) => [n, defs[n]]),
  );
  return { codexVersion: codexVersion(), methods, error: ERROR_DEF, $defs: kept };
}

/** Compact, one method and one definition per line: small, and a regeneration diffs line by line. */
function serialize({ codexVersion, methods, error, $defs }) {
  const lines = (obj) =>
    Object.entries(obj)
      .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(",\n");
  const tables = Object.entries(methods)
    .map(([side, table]) => `  ${JSON.stringify(side)}: {\n${lines(table)}\n  }`)
    .join(",\n");
  return [
    "{",
    `  "codexVersion": ${JSON.stringify(codexVersion)},`,
    `  "methods": {\n${tables.replace(/^/gm, "  ")}\n  },`,
    `  "error": ${JSON.stringify(error)},`,
    `  "$defs": {\n${lines($defs)}\n  }`,
    "}\n",
  ].join("\n");
}

const schema = build();
writeFileSync(outFile, serialize(schema));
const counts = Object.entries(schema.methods).map(([side, t]) => `${Object.keys(t).length} ${side}`);
console.log(
  `${path.relative(root, outFile)}: Codex ${schema.codexVersion}, ${counts.join(", ")}, ${Object.keys(schema.$defs).length} definitions`,
);
