"use client";
/** What a Codex app-server request asks: an approval's decisions or the model's questions (ApprovalCard). */
import type { Frame } from "@/lib/protocol/frame";
import { ApprovalCard } from "./ApprovalCard";

export function AppServerRequestCard({ frame }: { frame: Frame }) {
  return (
    <ApprovalCard
      id={frame.id ?? null}
      method={frame.method ?? ""}
      params={(frame.message as { params?: unknown }).params}
    />
  );
}
