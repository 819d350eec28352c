"use client";
/**
 * The right-hand side of a tab: the views of its agent. Today that is the
 * frame inspector; the decoded session view will sit next to it here.
 */
import { FrameInspector } from "./FrameInspector";

export function ViewPane() {
  return (
    <section className="flex min-h-0 flex-1 flex-col" data-testid="view-pane" aria-label="Views">
      <FrameInspector />
    </section>
  );
}
