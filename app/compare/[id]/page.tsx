import type { Metadata } from "next";
import { ComparisonViewerPage } from "@/components/compare/ComparisonViewer";

export const metadata: Metadata = { title: "Comparison · ACP Playground" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ComparisonViewerPage id={id} />;
}
