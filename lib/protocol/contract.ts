/**
 * Reading a contract: a zod schema gives both the TypeScript type and the check.
 * Server-side only at run time (zod stays out of the browser bundle: components
 * import these modules' types, never their values).
 */
import type { z } from "zod";
import { fail, ok, type Result } from "./result";

/** One line per issue, each naming where it is: `options.model: expected string, received number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const at = issue.path.map(String).join(".");
      const message =
        issue.code === "unrecognized_keys"
          ? `unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}`
          : // A record's key (the path ends with it): say what is wrong with it.
            issue.code === "invalid_key" && issue.issues[0]
            ? issue.issues[0].message
            : issue.message.replace(/^Invalid input: /, "");
      return at ? `${at}: ${message}` : message;
    })
    .join("; ");
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): Result<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success ? ok(parsed.data) : fail(describeIssues(parsed.error));
}
