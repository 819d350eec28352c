"use client";
/** Filters, search and the events toggle above the frame list. */
import { memo, type ReactNode } from "react";
import type { FrameDirection, FrameKind } from "@/lib/protocol/frame";
import { isFiltering, type FrameFilter } from "@/lib/folds/frame-filter";

interface Props {
  filter: FrameFilter;
  onFilter: (f: FrameFilter) => void;
  search: string;
  onSearch: (text: string) => void;
  methods: readonly string[];
  variants: readonly string[];
  showEvents: boolean;
  onShowEvents: (show: boolean) => void;
  /** Chunk folding (lib/folds/chunk-folds.ts); absent: no toggle. */
  folding?: boolean;
  onFolding?: (fold: boolean) => void;
  shown: number;
  total: number;
  missed: number;
  unanswered: number;
}

const select =
  "rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 text-xs text-zinc-200 focus:border-sky-500 focus:outline-none";
const check = "flex items-center gap-1 text-xs text-zinc-400 select-none";

const KINDS: FrameKind[] = ["request", "response", "notification", "invalid"];

/** The filter with `p` applied, kept minimal: undefined, false and "" mean "no constraint". */
function patched(filter: FrameFilter, p: Partial<FrameFilter>): FrameFilter {
  const next: FrameFilter = { ...filter, ...p };
  for (const k of Object.keys(next) as (keyof FrameFilter)[])
    if (next[k] === undefined || next[k] === false || next[k] === "") delete next[k];
  return next;
}

export function InspectorToolbar(props: Props) {
  const {
    filter,
    onFilter,
    search,
    onSearch,
    methods,
    variants,
    showEvents,
    onShowEvents,
    folding,
    onFolding,
    shown,
    total,
    missed,
    unanswered,
  } = props;
  // A method or variant chosen earlier stays selectable even before it is seen again.
  const methodOptions = filter.method && !methods.includes(filter.method) ? [...methods, filter.method] : methods;
  const variantOptions =
    filter.updateVariant && !variants.includes(filter.updateVariant) ? [...variants, filter.updateVariant] : variants;
  const filtering = isFiltering(filter) || search !== "";
  // The counts change with every batch of a flood; the inputs (memo) must not re-render with them:
  // React re-sets a controlled input's type and name on every update, and each time the browser
  // re-styles and re-lays out the whole page.
  return (
    <div className="flex flex-col gap-1.5 border-b border-zinc-800 px-3 py-2">
      <div className="flex items-center gap-3 text-xs">
        <h2 className="font-semibold uppercase tracking-wider text-zinc-400">Frames</h2>
        <span data-testid="frame-count" className="text-zinc-400 tabular-nums">
          {filtering
            ? `${shown.toLocaleString("en")} of ${total.toLocaleString("en")} frames`
            : `${total.toLocaleString("en")} frame${total === 1 ? "" : "s"}`}
        </span>
        {missed > 0 ? (
          <span className="text-amber-400">{missed.toLocaleString("en")} older frames not held</span>
        ) : null}
        {unanswered > 0 ? (
          <button
            type="button"
            data-testid="unanswered-count"
            className="text-amber-300 hover:underline"
            onClick={() => onFilter(patched(filter, { checksOnly: true }))}
            title="Show frames with protocol issues"
          >
            {unanswered} unanswered
          </button>
        ) : null}
        {onFolding ? (
          <Toggle
            testId="toggle-folding"
            checked={!!folding}
            onChange={onFolding}
            accent="accent-violet-500"
            className="ml-auto"
            title="Consecutive chunks of one message as one row; off: every frame"
          >
            fold chunks
          </Toggle>
        ) : null}
        <Toggle
          testId="toggle-events"
          checked={showEvents}
          onChange={onShowEvents}
          accent="accent-sky-500"
          className={onFolding ? undefined : "ml-auto"}
        >
          show stderr &amp; lifecycle
        </Toggle>
      </div>
      <InspectorControls
        filter={filter}
        onFilter={onFilter}
        search={search}
        onSearch={onSearch}
        methodOptions={methodOptions}
        variantOptions={variantOptions}
        filtering={filtering}
      />
    </div>
  );
}

const InspectorControls = memo(function InspectorControls({
  filter,
  onFilter,
  search,
  onSearch,
  methodOptions,
  variantOptions,
  filtering,
}: Pick<Props, "filter" | "onFilter" | "search" | "onSearch"> & {
  methodOptions: readonly string[];
  variantOptions: readonly string[];
  filtering: boolean;
}) {
  const patch = (p: Partial<FrameFilter>) => onFilter(patched(filter, p));
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        type="search"
        data-testid="frame-search"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
        placeholder="Search raw text…"
        spellCheck={false}
        className="w-56 rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 font-mono text-xs text-zinc-100 placeholder:text-zinc-400 focus:border-sky-500 focus:outline-none"
      />
      <select
        data-testid="filter-dir"
        aria-label="Direction"
        className={select}
        value={filter.dir ?? ""}
        onChange={(e) => patch({ dir: (e.target.value || undefined) as FrameDirection | undefined })}
      >
        <option value="">both ways</option>
        <option value="to-agent">→ to agent</option>
        <option value="from-agent">← from agent</option>
      </select>
      <FilterSelect
        testId="filter-kind"
        label="Kind"
        anyLabel="any kind"
        options={KINDS}
        value={filter.kind}
        onChange={(v) => patch({ kind: v as FrameKind | undefined })}
      />
      <FilterSelect
        testId="filter-method"
        label="Method"
        anyLabel="any method"
        options={methodOptions}
        value={filter.method}
        onChange={(v) => patch({ method: v })}
        wide
      />
      <FilterSelect
        testId="filter-update"
        label="session/update variant"
        anyLabel="any session/update"
        options={variantOptions}
        value={filter.updateVariant}
        onChange={(v) => patch({ updateVariant: v })}
        wide
        disabled={variantOptions.length === 0}
      />
      <Toggle
        testId="filter-errors"
        checked={!!filter.errorsOnly}
        onChange={(v) => patch({ errorsOnly: v })}
        accent="accent-red-500"
      >
        errors only
      </Toggle>
      <Toggle
        testId="filter-checks"
        checked={!!filter.checksOnly}
        onChange={(v) => patch({ checksOnly: v })}
        accent="accent-amber-500"
        title="Orphan responses, unanswered requests, reused ids, notifications sent with an id, requests sent without one, methods going the wrong way (schema failures show in the checks column only)"
      >
        protocol issues
      </Toggle>
      {filtering ? (
        <button
          type="button"
          data-testid="clear-filters"
          onClick={() => {
            onFilter({});
            onSearch("");
          }}
          className="rounded px-2 py-0.5 text-xs text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"
        >
          Clear
        </button>
      ) : null}
    </div>
  );
});

/** A labelled checkbox of the toolbar (memo: its props rarely change during a flood). */
const Toggle = memo(function Toggle(props: {
  testId: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  accent: string;
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={props.className ? `${check} ${props.className}` : check} title={props.title}>
      <input
        type="checkbox"
        data-testid={props.testId}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        className={props.accent}
      />
      {props.children}
    </label>
  );
});

/** A filter select: "" means no filter. */
function FilterSelect(props: {
  testId: string;
  label: string;
  anyLabel: string;
  options: readonly string[];
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  wide?: boolean;
  disabled?: boolean;
}) {
  return (
    <select
      data-testid={props.testId}
      aria-label={props.label}
      className={props.wide ? `${select} max-w-56` : select}
      value={props.value ?? ""}
      onChange={(e) => props.onChange(e.target.value || undefined)}
      disabled={props.disabled}
    >
      <option value="">{props.anyLabel}</option>
      {props.options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  );
}
