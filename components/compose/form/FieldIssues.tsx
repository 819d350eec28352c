"use client";
/** Schema issues and compose warnings about exactly one field, under it. */
import { issuesAt, pathString, type Path } from "@/lib/features/compose/schema-form";
import { useFormEnv } from "./form-env";

export function FieldIssues({ path }: { path: Path }) {
  const env = useFormEnv();
  const at = pathString(path, env.root);
  const issues = issuesAt(env.issues, at);
  const warnings = env.warnings.filter((w) => w.path === at);
  if (issues.length === 0 && warnings.length === 0) return null;
  return (
    <ul className="flex flex-col gap-0.5" data-testid="field-issues" data-path={at}>
      {issues.map((i, n) => (
        <li key={`i${n}`} className="text-[11px] text-red-300">
          {i.message}
        </li>
      ))}
      {warnings.map((w, n) => (
        <li key={`w${n}`} className="text-[11px] text-amber-300">
          {w.message}
        </li>
      ))}
    </ul>
  );
}
