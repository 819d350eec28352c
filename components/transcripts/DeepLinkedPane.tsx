"use client";
/**
 * The viewer's views, opened where a `#seq=N` link points: once frame N is read (a large
 * transcript streams in), the Frames view mounts scrolled to it, selected. Another link on the
 * same page (a hash change) opens that one.
 */
import { useEffect, useRef, useState } from "react";
import { seqFromHash } from "@/lib/features/deep-link";
import type { SessionSnapshot } from "../state/session-store";
import { useSession, useTab } from "../state/use-session";
import { ViewPane } from "../ViewPane";

const selectLastSeq = (s: SessionSnapshot) => s.frames.last?.seq ?? 0;
const selectEpoch = (s: SessionSnapshot) => s.epoch;

/** The frame the page's hash names, following hash changes. */
export function useHashSeq(): number | undefined {
  const [seq, setSeq] = useState<number>();
  useEffect(() => {
    const read = () => setSeq(seqFromHash(window.location.hash));
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return seq;
}

export function DeepLinkedPane({ complete }: { complete: boolean }) {
  const target = useHashSeq();
  const tab = useTab();
  const lastSeq = useSession(selectLastSeq);
  const epoch = useSession(selectEpoch);
  const applied = useRef<number | undefined>(undefined);
  if (target === undefined) return <ViewPane />;
  const present = lastSeq >= target;
  if (!present && !complete) {
    return (
      <p data-testid="deep-link-loading" className="px-3 py-6 text-center text-sm text-zinc-400">
        Reading up to frame {target}…
      </p>
    );
  }
  if (present && applied.current !== target) {
    // Read by the views' tab state as they mount (the ViewPane below is keyed by the target).
    tab.ui.set("view", "frames");
    tab.ui.set("inspector.selection", { epoch, seq: target });
    applied.current = target;
  }
  return <ViewPane key={target} revealSeq={present ? target : undefined} />;
}
