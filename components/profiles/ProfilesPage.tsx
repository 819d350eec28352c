"use client";
import { PageFrame } from "../transcripts/PageFrame";
import { ProfilesView } from "./ProfilesView";

export function ProfilesPage() {
  return <PageFrame>{(token) => <ProfilesView token={token} />}</PageFrame>;
}
