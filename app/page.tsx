import { Playground } from "@/components/Playground";

export default function Page() {
  return <Playground />;
}
