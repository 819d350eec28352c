"use client";
/**
 * A non-text content block (image, audio, resource, resource link) as a chip
 * or an inline image. Images only from base64 data with an image/* type;
 * URIs are shown as text, never followed.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { imageDataUrl } from "@/lib/folds/session-view-format";

const chip =
  "inline-flex max-w-full items-center gap-1 truncate rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 font-mono text-[11px] text-zinc-300";

export function ContentBlockView({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case "text":
      return <span className="whitespace-pre-wrap">{block.text}</span>;
    case "image": {
      const src = imageDataUrl(block);
      return src ? (
        <img
          data-testid="sv-image"
          src={src}
          alt="image from the conversation"
          className="max-h-64 max-w-full rounded border border-zinc-800"
        />
      ) : (
        <span className={chip} data-testid="sv-chip">
          image ({String(block.mimeType)}), not shown
        </span>
      );
    }
    case "audio":
      return (
        <span className={chip} data-testid="sv-chip">
          audio · {String(block.mimeType)}
        </span>
      );
    case "resource_link":
      return (
        <span className={chip} data-testid="sv-chip" title={block.uri}>
          <span className="text-sky-300">link</span> {block.title ?? block.name}{" "}
          <span className="text-zinc-500">{block.uri}</span>
        </span>
      );
    case "resource": {
      const r = block.resource;
      const size = "text" in r ? `${r.text.length} chars` : "blob" in r ? "binary" : "";
      return (
        <span className={chip} data-testid="sv-chip" title={r.uri}>
          <span className="text-emerald-300">resource</span> {r.uri} <span className="text-zinc-500">{size}</span>
        </span>
      );
    }
    default: {
      const other: { type?: unknown } = block;
      return (
        <span className={chip} data-testid="sv-chip">
          {String(other.type)} block
        </span>
      );
    }
  }
}
