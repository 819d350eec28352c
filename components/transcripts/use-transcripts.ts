"use client";
/** The transcript list and the API client for one token; refreshed after every change. */
import { useCallback, useEffect, useMemo, useState } from "react";
import type { Me } from "@/lib/contracts/transcript-meta";
import { api, ApiError, type TranscriptMeta } from "./api";

const RECORDING_POLL_MS = 2_000;

export function useTranscripts(token: string) {
  const client = useMemo(() => api(token), [token]);
  const [list, setList] = useState<TranscriptMeta[]>();
  const [error, setError] = useState<ApiError>();

  const refresh = useCallback(async () => {
    try {
      setList(await client.list());
      setError(undefined);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, "network", (err as Error).message));
    }
  }, [client]);

  useEffect(() => void refresh(), [refresh]);

  // Who this token is, so that a row offers a person only what they may change (unknown: all, the relay decides).
  const [me, setMe] = useState<Me>();
  useEffect(() => {
    client.me().then(setMe, () => setMe(undefined));
  }, [client]);

  // A transcript being recorded grows: keep its counts (and the badge) current.
  const recording = list?.some((t) => t.recording) ?? false;
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => void refresh(), RECORDING_POLL_MS);
    return () => clearInterval(timer);
  }, [recording, refresh]);

  return { client, list, error, refresh, me };
}

export type TranscriptsClient = ReturnType<typeof api>;
