"use client";
/**
 * Agent text through the sanitising Markdown renderer: raw HTML is skipped
 * (never parsed into elements), URLs go through react-markdown's default
 * transform (javascript: and other unsafe schemes become ""), links without a
 * safe href render as plain text, and images are shown as labels, never
 * fetched. Streaming text is split into segments (lib/folds/markdown-segments) so
 * only the open tail re-renders as chunks arrive.
 */
import "highlight.js/styles/github-dark.css";
import { memo, useMemo, useRef, useState, type ComponentProps } from "react";
import Markdown, { type Components, type ExtraProps } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { segmentMarkdown, tailSegment, type SegmentState } from "@/lib/folds/markdown-segments";
import { useShownFor } from "./use-shown-for";

const REMARK = [remarkGfm];
// react-markdown builds its processor on every render, and rehype-highlight's attacher registers
// every language anew each time (most of a small segment's cost): build the transformer once.
const highlight = rehypeHighlight();
const REHYPE = [() => highlight];

function SafeLink({ href, children, title }: ComponentProps<"a"> & ExtraProps) {
  if (!href) {
    return (
      <span className="sv-md-badlink" title="link removed: unsafe URL">
        {children}
      </span>
    );
  }
  return (
    <a href={href} title={title} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/** Agent Markdown may point at any URL: show it, never load it. */
function ImageLabel({ src, alt }: ComponentProps<"img"> & ExtraProps) {
  return (
    <span className="sv-chip" title={typeof src === "string" ? src : undefined}>
      image: {alt || "(no description)"}
      {typeof src === "string" && src ? <span className="text-zinc-500"> · {src}</span> : null}
    </span>
  );
}

const COMPONENTS: Components = { a: SafeLink, img: ImageLabel };

/** Up to this many closed segments, a message renders all of them as Markdown right away. */
const EAGER_SEGMENTS = 6;
/** A part of a huge message becomes Markdown once it has been in view this long. */
const UPGRADE_AFTER_MS = 250;

interface SegmentProps {
  text: string;
  cont: boolean;
  joinNext: boolean;
  /** Plain text until seen (huge messages): parsing Markdown nobody sees is most of a flood's cost. */
  lazy: boolean;
}

const Segment = memo(function Segment({ text, cont, joinNext, lazy }: SegmentProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [eager] = useState(!lazy); // rendered as Markdown once: never back to plain text
  const seen = useShownFor(ref, UPGRADE_AFTER_MS, lazy && !eager);
  const markdown = eager || !lazy || seen;
  return (
    <div
      ref={ref}
      className="sv-md-seg"
      data-md={markdown ? "markdown" : "plain"}
      data-cont={cont || undefined}
      data-join={joinNext || undefined}
    >
      {markdown ? (
        <Markdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={COMPONENTS} skipHtml>
          {text}
        </Markdown>
      ) : (
        <p className="whitespace-pre-wrap">{text}</p>
      )}
    </div>
  );
});

/** Markdown that may still be growing by appends: closed segments are memoised, the open tail re-renders. */
export function StreamingMarkdown({ text }: { text: string }) {
  const prev = useRef<SegmentState | undefined>(undefined);
  const state = useMemo(() => segmentMarkdown(text, prev.current), [text]);
  prev.current = state;
  const { done } = state;
  const tail = tailSegment(state);
  const lazy = done.length > EAGER_SEGMENTS;
  return (
    <div className="sv-md">
      {done.map((s, i) => (
        <Segment key={i} text={s.text} cont={s.cont} joinNext={(done[i + 1] ?? tail)?.cont ?? false} lazy={lazy} />
      ))}
      {/* Its own key: when the tail closes, a new closed segment mounts (lazily) instead of re-parsing here. */}
      {tail ? <Segment key="tail" text={tail.text} cont={tail.cont} joinNext={false} lazy={false} /> : null}
    </div>
  );
}
