"use client";
/** User prompts, agent messages (Markdown) and thoughts (a collapsible "Thinking" block). */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { MessageItem } from "@/lib/folds/session-view";
import { sessionContextOf } from "@/lib/folds/session-view-format";
import { ContentBlockView } from "./ContentBlockView";
import { StreamingMarkdown } from "./Markdown";

export function Blocks({ blocks, markdown }: { blocks: readonly ContentBlock[]; markdown: boolean }) {
  return (
    <>
      {blocks.map((b, i) =>
        b.type === "text" ? (
          markdown ? (
            <StreamingMarkdown key={i} text={b.text} />
          ) : (
            <p key={i} className="whitespace-pre-wrap break-words text-[13px] leading-relaxed">
              {b.text}
            </p>
          )
        ) : (
          <div key={i} className="my-1">
            <ContentBlockView block={b} />
          </div>
        ),
      )}
    </>
  );
}

const label = "mb-1 text-[10px] font-semibold uppercase tracking-wider";

export function UserMessage({ item }: { item: MessageItem }) {
  // Gemini's `<session_context>` prompt (sent on its own, e.g. in a loaded history): not something the user typed.
  const context = sessionContextOf(item.blocks);
  if (context !== undefined) {
    return (
      <div className="flex flex-col gap-1.5">
        <details
          data-testid="session-context"
          className="rounded-md border border-zinc-800 bg-zinc-900/30 px-2.5 py-1.5"
        >
          <summary
            className="cursor-pointer select-none text-[11px] text-zinc-400"
            onClick={(e) => e.stopPropagation()}
          >
            session context{" "}
            <span className="text-zinc-600">· {context.context.length.toLocaleString("en-US")} chars</span>
          </summary>
          <pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap break-words font-mono text-[11px] text-zinc-400">
            {context.context.slice(0, 20_000)}
          </pre>
        </details>
        {context.rest ? <YouBubble blocks={[{ type: "text", text: context.rest }]} /> : null}
      </div>
    );
  }
  return <YouBubble blocks={item.blocks} />;
}

function YouBubble({ blocks }: { blocks: readonly ContentBlock[] }) {
  return (
    <div
      data-testid="user-message"
      className="ml-auto max-w-[85%] rounded-lg border border-sky-900/60 bg-sky-950/40 px-3 py-2 text-zinc-100"
    >
      <div className={`${label} text-sky-400/80`}>You</div>
      {blocks.length ? (
        <Blocks blocks={blocks} markdown={false} />
      ) : (
        <p className="text-xs text-zinc-500">(empty prompt)</p>
      )}
    </div>
  );
}

export function AgentMessage({ item }: { item: MessageItem }) {
  return (
    <div data-testid="agent-message" className="px-1">
      <div className={`${label} text-amber-400/80`}>Agent</div>
      <Blocks blocks={item.blocks} markdown />
    </div>
  );
}

/** Text length of a message, for the collapsed thought's summary. */
const size = (blocks: readonly ContentBlock[]) =>
  blocks.reduce((n, b) => n + (b.type === "text" ? b.text.length : 0), 0);

export function ThoughtBlock({ item }: { item: MessageItem }) {
  return (
    <details data-testid="thought" className="group rounded-md border border-zinc-800/80 bg-zinc-900/30 px-2.5 py-1.5">
      <summary
        data-testid="thought-toggle"
        className="flex cursor-pointer select-none items-center gap-2 text-[11px] text-zinc-400 hover:text-zinc-200"
        onClick={(e) => e.stopPropagation()}
      >
        <span className="transition-transform group-open:rotate-90">▸</span>
        <span className="font-medium italic">Thinking</span>
        <span className="text-zinc-600">{size(item.blocks).toLocaleString("en-US")} chars</span>
      </summary>
      <div data-testid="thought-body" className="mt-1.5 border-l-2 border-zinc-800 pl-2.5 opacity-80">
        <Blocks blocks={item.blocks} markdown />
      </div>
    </details>
  );
}
