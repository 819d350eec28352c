import type { Metadata } from "next";
import { WatchPage } from "@/components/watch/WatchPage";

export const metadata: Metadata = { title: "Watch link · ACP Playground" };

interface Props {
  params: Promise<{ token: string }>;
}

/** A watch link (POST /api/watch): one running session, live and read-only; needs no access token. */
export default async function Page({ params }: Props) {
  const { token } = await params;
  return <WatchPage token={token} />;
}
