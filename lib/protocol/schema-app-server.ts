/**
 * Validates frames of Codex's app-server protocol against its JSON Schema, as generated from the
 * pinned Codex and kept in lib/protocol/app-server-schema.json (scripts/app-server-schema.mjs): a
 * request's or notification's `params` by its method and direction (the client's requests and
 * notifications go to the agent, the server's come from it), a response's `result` by the method of
 * the request it answers, an error response's `error` against the one error shape. The same
 * validator and verdicts as ACP's (./schema-check.ts); an app-server frame is never judged by ACP's
 * schema, nor an ACP frame by this one. The file is passed in, so callers decide when to load it.
 */
import type { Frame, FrameDirection } from "./frame";
import { isObject } from "./json";
import { createSchemaChecker, type SchemaChecker, type SchemaIssue, type SchemaVerdict } from "./schema-check";

/** A method's definitions: its params (absent: it takes none; `optional`: absent or null fits too), its result. */
export interface AppServerMethod {
  params?: string;
  optional?: true;
  result?: string;
}

export type AppServerSide = "clientRequests" | "clientNotifications" | "serverRequests" | "serverNotifications";

/** lib/protocol/app-server-schema.json. */
export interface AppServerSchemaFile {
  codexVersion: string;
  methods: Record<AppServerSide, Record<string, AppServerMethod>>;
  /** The definition of an error response's `error`. */
  error: string;
  $defs: Record<string, unknown>;
}

export interface AppServerSchema {
  readonly file: AppServerSchemaFile;
  /** For named definitions (compose forms). */
  readonly checker: SchemaChecker;
  /** Issues of a frame; undefined when it is not checkable (invalid, or a response to no known request). */
  check(frame: Frame): SchemaVerdict | undefined;
}

/** Where a request or notification sent in `dir` is declared, and where the other way's are. */
const SIDES: Record<FrameDirection, { request: AppServerSide; notification: AppServerSide; sender: string }> = {
  "to-agent": { request: "clientRequests", notification: "clientNotifications", sender: "the client" },
  "from-agent": { request: "serverRequests", notification: "serverNotifications", sender: "the server" },
};

const OTHER: Record<FrameDirection, FrameDirection> = { "to-agent": "from-agent", "from-agent": "to-agent" };

const has = (table: Record<string, AppServerMethod>, method: string) => Object.hasOwn(table, method);

/** The app-server's verdicts are all from its one schema: "stable" (no variant badge). */
const verdict = (issues: SchemaIssue[]): SchemaVerdict => ({ variant: "stable", issues });
const outside = (message: string): SchemaVerdict => ({ variant: undefined, issues: [{ path: "method", message }] });

export function createAppServerSchema(file: AppServerSchemaFile): AppServerSchema {
  if (!isObject(file.$defs) || !isObject(file.methods)) throw new Error("not the app-server schema");
  const checker = createSchemaChecker(file);

  const params = (entry: AppServerMethod, value: unknown): SchemaIssue[] => {
    if (entry.params === undefined)
      return value === undefined || value === null ? [] : [{ path: "params", message: "not allowed: takes no params" }];
    if (entry.optional && (value === undefined || value === null)) return [];
    if (value === undefined) return [{ path: "params", message: "missing (required)" }];
    return checker.validate(entry.params, value, "params");
  };

  return {
    file,
    checker,
    check(frame) {
      const m = frame.message;
      if (!isObject(m)) return undefined;
      if (frame.kind === "response" && "error" in m) return verdict(checker.validate(file.error, m.error, "error"));
      const method = frame.method;
      if (method === undefined) return undefined;
      if (frame.kind === "response") {
        // Answers the other side's request: a result from the agent answers a client request.
        const entry = file.methods[SIDES[OTHER[frame.dir]].request][method];
        return entry?.result ? verdict(checker.validate(entry.result, m.result, "result")) : undefined;
      }
      if (frame.kind !== "request" && frame.kind !== "notification") return undefined;
      const side = SIDES[frame.dir];
      const table = file.methods[side[frame.kind]];
      if (has(table, method)) return verdict(params(table[method]!, m.params));
      const other = SIDES[OTHER[frame.dir]];
      const kind = frame.kind === "request" ? "request" : "notification";
      if (has(file.methods[other[frame.kind]], method))
        return outside(`${JSON.stringify(method)} is a ${kind} ${other.sender} sends, not ${side.sender}`);
      const asOther = frame.kind === "request" ? side.notification : side.request;
      if (has(file.methods[asOther], method))
        return outside(
          `${JSON.stringify(method)} is a ${frame.kind === "request" ? "notification (sent without an id)" : "request (it needs an id)"}`,
        );
      return outside(`${JSON.stringify(method)} is not in the app-server schema`);
    },
  };
}
