"use client";
/** What every field of a generated form needs besides its own value: issues, hints, suggestions. */
import { createContext, useContext } from "react";
import type { ComposeWarning, Suggestion } from "@/lib/features/compose/catalog";
import type { SchemaIssue } from "@/lib/protocol/schema-check";
import type { Path, Variant } from "@/lib/features/compose/schema-form";

export interface FormEnv {
  /** Prefix of issue paths: "params" for a method's params, "" for an elicitation's content. */
  root: string;
  issues: readonly SchemaIssue[];
  warnings: readonly ComposeWarning[];
  /** Known values for a field (sessions, modes, auth methods...). */
  suggest?: (path: Path) => Suggestion[] | undefined;
  /** Why a union variant is discouraged here (a content type the agent does not accept). */
  variantNote?: (variant: Variant, path: Path) => string | undefined;
}

export const FormEnvContext = createContext<FormEnv>({ root: "", issues: [], warnings: [] });

export const useFormEnv = (): FormEnv => useContext(FormEnvContext);

export interface EditorProps<N> {
  node: N;
  value: unknown;
  path: Path;
  set: (value: unknown) => void;
}
