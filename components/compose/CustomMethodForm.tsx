"use client";
/** Any method with any params, as a request or a notification (extension methods, typos on purpose). */
import { useMemo } from "react";
import type { SchemaIssue } from "@/lib/protocol/schema-check";
import { useTabState } from "../state/use-session";
import { FrameSender } from "./FrameSender";
import { JsonEditor } from "./form/JsonEditor";
import { FormEnvContext } from "./form/form-env";
import { input, mono } from "./ui";
import type { ComposeSchema } from "./use-compose-schema";

interface Custom {
  method: string;
  notification: boolean;
  params: unknown;
}

export function CustomMethodForm({ schema, onToRaw }: { schema: ComposeSchema; onToRaw: (text: string) => void }) {
  const [custom, setCustom] = useTabState<Custom>("compose.custom", {
    method: "_example/hello",
    notification: false,
    params: {},
  });
  // A method the schema knows is still checked against it.
  const def = useMemo(() => schema.specs.find((s) => s.method === custom.method)?.def, [schema, custom.method]);
  const issues: SchemaIssue[] = useMemo(
    () => (def ? schema.checker.validate(def, custom.params, "params") : []),
    [def, schema, custom.params],
  );
  const issuesEnv = useMemo(() => ({ root: "params", issues, warnings: [] }), [issues]);
  return (
    <div className="flex flex-col gap-2" data-testid="custom-form">
      <label className="flex items-center gap-2 text-[11px] text-zinc-400">
        <span className="w-14 shrink-0">method</span>
        <input
          data-testid="custom-method"
          className={mono}
          value={custom.method}
          onChange={(e) => setCustom({ ...custom, method: e.target.value })}
          spellCheck={false}
        />
      </label>
      <label className="flex items-center gap-2 text-[11px] text-zinc-400">
        <span className="w-14 shrink-0">kind</span>
        <select
          data-testid="custom-kind"
          className={`${input} w-auto`}
          value={custom.notification ? "notification" : "request"}
          onChange={(e) => setCustom({ ...custom, notification: e.target.value === "notification" })}
        >
          <option value="request">request (gets an id, expects an answer)</option>
          <option value="notification">notification (no id, no answer)</option>
        </select>
      </label>
      <div className="flex flex-col gap-0.5 text-[11px] text-zinc-400">
        <span>params (JSON){def ? ` · checked against ${def}` : ""}</span>
        <FormEnvContext.Provider value={issuesEnv}>
          <JsonEditor
            node={{ kind: "json" }}
            value={custom.params}
            path={[]}
            set={(params) => setCustom({ ...custom, params })}
            testId="custom-params"
          />
        </FormEnvContext.Provider>
      </div>
      <FrameSender
        method={custom.method}
        params={custom.params}
        notification={custom.notification}
        issues={issues}
        warnings={[]}
        onToRaw={onToRaw}
      />
    </div>
  );
}
