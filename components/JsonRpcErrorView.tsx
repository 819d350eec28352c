"use client";
/**
 * One JSON-RPC error as every view shows it: the message and code, then what
 * `data` carries (agents put the real reason there, e.g. Gemini's `details`).
 */

interface ErrorLike {
  code?: number | string;
  message: string;
  data?: unknown;
}

/** One validation issue (zod's shape, as the ACP SDK answers invalid params): "path: message". */
function issueText(issue: unknown): string | undefined {
  if (typeof issue !== "object" || issue === null) return undefined;
  const { path, message } = issue as { path?: unknown; message?: unknown };
  if (typeof message !== "string") return undefined;
  return Array.isArray(path) && path.length ? `${path.join(".")}: ${message}` : message;
}

/** A short reason from `data`: a string, `details` / `message` / `reason` inside it, or a list of issues. */
function dataReason(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  if (Array.isArray(data)) {
    const issues = data.map(issueText).filter((t): t is string => t !== undefined);
    return issues.length ? issues.join("; ") : undefined;
  }
  if (typeof data !== "object" || data === null) return undefined;
  for (const key of ["details", "message", "reason"]) {
    const v = (data as Record<string, unknown>)[key];
    if (typeof v === "string" && v.trim()) return v;
  }
  return undefined;
}

export function JsonRpcErrorView({ error, prefix }: { error: ErrorLike; prefix?: string }) {
  const reason = dataReason(error.data);
  const hasData = error.data !== undefined && error.data !== null;
  return (
    <span data-testid="rpc-error" className="inline-flex min-w-0 flex-col gap-0.5 text-red-300">
      <span>
        {prefix}
        <span data-testid="rpc-error-message">{error.message}</span>
        {error.code !== undefined ? <span className="text-red-300/80"> ({error.code})</span> : null}
      </span>
      {reason ? (
        <span data-testid="rpc-error-data" className="whitespace-pre-wrap break-words text-red-200">
          {reason}
        </span>
      ) : null}
      {hasData && (typeof error.data === "object" || !reason) ? (
        <details className="text-zinc-400">
          <summary className="cursor-pointer text-[10px]">error.data</summary>
          <pre
            data-testid={reason ? undefined : "rpc-error-data"}
            className="max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-[10px]"
          >
            {JSON.stringify(error.data, null, 2)}
          </pre>
        </details>
      ) : null}
    </span>
  );
}
