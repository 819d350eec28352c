import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { buildFormFromSchema, initialValue, validateAgainst } from "@/lib/features/compose/schema-form";
import { SchemaForm } from "./SchemaForm";

const SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string" },
    retries: { type: "integer" },
    verbose: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    modes: { type: "array", items: { type: "string", enum: ["read", "write"] } },
    target: {
      oneOf: [
        {
          title: "file",
          type: "object",
          properties: { kind: { const: "file" }, path: { type: "string" } },
          required: ["kind", "path"],
        },
        {
          title: "url",
          type: "object",
          properties: { kind: { const: "url" }, url: { type: "string" } },
          required: ["kind", "url"],
        },
      ],
    },
  },
  required: ["title", "target"],
};

/** The form as a page holds it: the value in state, its issues checked against the schema. */
function Form() {
  const node = buildFormFromSchema(SCHEMA);
  const [value, setValue] = useState<unknown>(() => initialValue(node));
  const issues = validateAgainst(SCHEMA, value);
  return (
    <>
      <SchemaForm node={node} value={value} set={setValue} env={{ root: "", issues, warnings: [] }} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

const value = () => JSON.parse(screen.getByTestId("value").textContent ?? "null") as Record<string, unknown>;
const field = (path: string) => document.querySelector<HTMLInputElement>(`input[data-path="${path}"]`)!;

describe("the schema form editors", () => {
  it("starts from the schema's required fields and edits a string", () => {
    render(<Form />);
    expect(value()).toMatchObject({ title: "", target: { kind: "file", path: "" } });
    fireEvent.change(field("title"), { target: { value: "hello" } });
    expect(value().title).toBe("hello");
  });

  it("adds an optional field on request and leaves it out again", () => {
    render(<Form />);
    expect("retries" in value()).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "+ retries" }));
    expect(value().retries).toBe(0);
    // Text that is no number goes in as typed, for validation to name; a number goes in as one.
    fireEvent.change(field("retries"), { target: { value: "three" } });
    expect(value().retries).toBe("three");
    fireEvent.change(field("retries"), { target: { value: "3" } });
    expect(value().retries).toBe(3);
    const row = document.querySelector('[data-testid="form-field"][data-path="retries"]') as HTMLElement;
    fireEvent.click(within(row).getByTestId("field-remove"));
    expect("retries" in value()).toBe(false);
  });

  it("an optional boolean is a checkbox from the start", () => {
    render(<Form />);
    fireEvent.click(field("verbose"));
    expect(value().verbose).toBe(true);
  });

  it("a list: adds items, moves one, removes one", () => {
    render(<Form />);
    fireEvent.click(screen.getByRole("button", { name: "+ tags" }));
    const add = () => fireEvent.click(within(listOf("tags")).getByTestId("array-add"));
    add();
    add();
    fireEvent.change(field("tags[0]"), { target: { value: "a" } });
    fireEvent.change(field("tags[1]"), { target: { value: "b" } });
    expect(value().tags).toEqual(["a", "b"]);
    fireEvent.click(within(listOf("tags")).getAllByTitle("move down")[0]!);
    expect(value().tags).toEqual(["b", "a"]);
    expect((within(listOf("tags")).getAllByTitle("move down")[1] as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(listOf("tags")).getAllByTestId("array-remove")[0]!);
    expect(value().tags).toEqual(["a"]);
  });

  it("a list of an enum's values is a set of checkboxes", () => {
    render(<Form />);
    fireEvent.click(screen.getByRole("button", { name: "+ modes" }));
    fireEvent.click(screen.getByLabelText("write"));
    fireEvent.click(screen.getByLabelText("read"));
    expect(value().modes).toEqual(["write", "read"]);
    fireEvent.click(screen.getByLabelText("write"));
    expect(value().modes).toEqual(["read"]);
  });

  it("one of several shapes: switching the variant gives that variant's fields, its tag kept out of sight", () => {
    render(<Form />);
    fireEvent.change(field("target.path"), { target: { value: "/w/a.txt" } });
    const select = screen.getByTestId<HTMLSelectElement>("variant-select");
    fireEvent.change(select, { target: { value: "1" } });
    expect(value().target).toMatchObject({ kind: "url" });
    expect(field("target.path")).toBeNull();
    fireEvent.change(field("target.url"), { target: { value: "https://example.com" } });
    expect(value().target).toEqual({ kind: "url", url: "https://example.com" });
    expect(field("target.kind")).toBeNull();
  });
});

function listOf(path: string): HTMLElement {
  return document.querySelector(`[data-testid="form-array"][data-path="${path}"]`) as HTMLElement;
}
