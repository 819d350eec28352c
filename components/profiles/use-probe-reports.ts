"use client";
/** The probe reports of this page visit (run here or uploaded), and probing itself. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ProbeReport } from "@/lib/contracts/reports";
import { parseReport } from "@/lib/features/probe/export";
import type { RelayError } from "@/lib/contracts/wire";
import { relayCall, type RelayProgress } from "../transcripts/relay-call";

export interface ReportEntry {
  key: string;
  label: string;
  report: ProbeReport;
  /** Run from this page (not an uploaded file). */
  here: boolean;
}

export type ProbeRun = { profile: string; progress: RelayProgress } | undefined;

const time = (iso: string) => iso.slice(11, 19);

export function useProbeReports(token: string) {
  const [entries, setEntries] = useState<ReportEntry[]>([]);
  const [running, setRunning] = useState<ProbeRun>();
  const [error, setError] = useState<{ profile: string; error: RelayError }>();
  const [uploadError, setUploadError] = useState<string>();
  // Leaving the page stops waiting (the relay finishes the probe and stops its agent anyway).
  const abort = useRef<AbortController>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const add = useCallback((report: ProbeReport, label: string, here = false) => {
    const entry = { key: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, label, report, here };
    setEntries((list) => [...list, entry]);
    return entry;
  }, []);

  /** `terminals`: let the relay run the agent's terminal commands (opt-in; never a URL profile's). */
  const probe = useCallback(
    async (profile: string, terminals = false) => {
      setRunning({ profile, progress: { frames: 0 } });
      setError(undefined);
      abort.current = new AbortController();
      const res = await relayCall<{ report: ProbeReport }>(
        token,
        "agent:probe",
        terminals ? { profile, terminals } : { profile },
        (progress) => setRunning({ profile, progress }),
        abort.current.signal,
      );
      setRunning(undefined);
      if (!res.ok) {
        setError({ profile, error: res.error });
        return undefined;
      }
      return add(res.report, `${profile} · ${time(res.report.startedAt)} (run here)`, true);
    },
    [token, add],
  );

  const upload = useCallback(
    async (file: File) => {
      try {
        const report = parseReport(await file.text());
        setUploadError(undefined);
        return add(report, `${report.profile} · ${time(report.startedAt)} (${file.name})`);
      } catch (err) {
        setUploadError(`${file.name} is not a probe report: ${(err as Error).message}`);
        return undefined;
      }
    },
    [add],
  );

  return { entries, running, error, uploadError, probe, upload };
}
