"use client";
/** Picks the editor for a field tree node. */
import type { FieldNode } from "@/lib/features/compose/schema-form";
import { ArrayEditor } from "./ArrayEditor";
import type { EditorProps } from "./form-env";
import { JsonEditor } from "./JsonEditor";
import { ObjectEditor } from "./ObjectEditor";
import { BooleanEditor, ConstView, NumberEditor, StringEditor } from "./ScalarEditors";
import { UnionEditor } from "./UnionEditor";

export function FieldEditor(props: EditorProps<FieldNode> & { name?: string }) {
  const { node } = props;
  switch (node.kind) {
    case "object":
      return <ObjectEditor {...props} node={node} />;
    case "array":
      return <ArrayEditor {...props} node={node} />;
    case "union":
      return <UnionEditor {...props} node={node} />;
    case "string":
      return <StringEditor {...props} node={node} />;
    case "number":
      return <NumberEditor {...props} node={node} />;
    case "boolean":
      return <BooleanEditor {...props} node={node} />;
    case "const":
      return <ConstView {...props} node={node} />;
    case "json":
      return <JsonEditor {...props} node={node} />;
  }
}
