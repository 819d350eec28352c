"use client";
/** The transcript list and the API client for one token; refreshed after every change. */
import { useCallback, useEffect, useMemo, useState } from "react";
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

  // A transcript being recorded grows: keep its counts (and the badge) current.
  const recording = list?.some((t) => t.recording) ?? false;
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => void refresh(), RECORDING_POLL_MS);
    return () => clearInterval(timer);
  }, [recording, refresh]);

  return { client, list, error, refresh };
}

export type TranscriptsClient = ReturnType<typeof api>;
