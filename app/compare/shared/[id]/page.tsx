import type { Metadata } from "next";
import { SharedComparisonPage } from "@/components/compare/ComparisonViewer";

export const metadata: Metadata = { title: "Shared comparison · ACP Playground" };

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function Page({ params, searchParams }: Props) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  return <SharedComparisonPage id={id} shareToken={typeof query.token === "string" ? query.token : ""} />;
}
