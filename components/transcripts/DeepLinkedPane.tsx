"use client";
/**
 * The viewer's views, opened where a `#seq=N` link points: once frame N is read (a large
 * transcript streams in), the Frames view selects it and scrolls to it (ViewPane's `goto`).
 * Another link on the same page (a hash change) goes there too.
 */
import { useEffect, useState } from "react";
import { seqFromHash } from "@/lib/features/library/deep-link";
import type { FrameGoto } from "../inspector/FrameInspector";
import type { SessionSnapshot } from "../state/snapshot";
import { useSession } from "../state/use-session";
import { ViewPane } from "../ViewPane";

const selectLastSeq = (s: SessionSnapshot) => s.frames.last?.seq ?? 0;

/** The frame the page's hash names, a new request per hash change. */
function useHashGoto(): FrameGoto | undefined {
  const [goto, setGoto] = useState<FrameGoto>();
  useEffect(() => {
    const read = () => {
      const seq = seqFromHash(window.location.hash);
      setGoto(seq === undefined ? undefined : { seq });
    };
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return goto;
}

/** `goto`: the caller's own request, before the hash's. */
export function DeepLinkedPane({ goto }: { goto?: FrameGoto }) {
  const link = useHashGoto();
  const lastSeq = useSession(selectLastSeq);
  const [sent, setSent] = useState<FrameGoto>();
  // Sent once the frame is there: the inspector can select and scroll only to a frame it holds.
  const ready = link !== undefined && lastSeq >= link.seq;
  useEffect(() => {
    if (ready) setSent(link);
  }, [ready, link]);
  return <ViewPane goto={goto ?? sent} />;
}
