"use client";
/** The saved comparisons, loaded again whenever `version` changes (a new one was saved). */
import { useEffect, useState } from "react";
import type { ComparisonRecord } from "@/lib/contracts/compare-format";
import { compareApi } from "./compare-api";

export function useComparisons(token: string, version?: unknown): { list: ComparisonRecord[]; error?: string } {
  const [state, setState] = useState<{ list: ComparisonRecord[]; error?: string }>({ list: [] });
  useEffect(() => {
    let live = true;
    compareApi(token)
      .list()
      .then((list) => live && setState({ list }))
      .catch((e: Error) => live && setState({ list: [], error: e.message }));
    return () => {
      live = false;
    };
  }, [token, version]);
  return state;
}
