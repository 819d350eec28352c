import type { Metadata } from "next";
import { ProfilesPage } from "@/components/profiles/ProfilesPage";

export const metadata: Metadata = { title: "Profiles · ACP Playground" };

export default function Page() {
  return <ProfilesPage />;
}
