"use client";
/**
 * Agent text through the sanitising Markdown renderer: raw HTML is skipped
 * (never parsed into elements), URLs go through react-markdown's default
 * transform (javascript: and other unsafe schemes become ""), links without a
 * safe href render as plain text, and images are shown as labels, never
 * fetched. Streaming text is split into segments (lib/markdown-segments) so
 * only the open tail re-renders as chunks arrive.
 */
import "highlight.js/styles/github-dark.css";
import { memo, useMemo, useRef, type ComponentProps } from "react";
import Markdown, { type Components, type ExtraProps } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { segmentMarkdown, segmentsOf, type SegmentState } from "@/lib/markdown-segments";

const REMARK = [remarkGfm];
const REHYPE = [rehypeHighlight];

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

const Segment = memo(function Segment({ text, cont }: { text: string; cont: boolean }) {
  return (
    <div className="sv-md-seg" data-cont={cont || undefined}>
      <Markdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={COMPONENTS} skipHtml>
        {text}
      </Markdown>
    </div>
  );
});

/** Markdown that may still be growing by appends. */
export function StreamingMarkdown({ text }: { text: string }) {
  const prev = useRef<SegmentState | undefined>(undefined);
  const state = useMemo(() => segmentMarkdown(text, prev.current), [text]);
  prev.current = state;
  const segments = segmentsOf(state);
  return (
    <div className="sv-md">
      {segments.map((s, i) => (
        <Segment key={i} text={s.text} cont={s.cont} />
      ))}
    </div>
  );
}
