"use client";

import { useRouter } from "next/navigation";
import { useBoardSocket } from "@/app/_components/use-board-socket";

/**
 * Keeps the printers page current: on `printer:changed` (a printer's state, settings or
 * queue) and on every reconnect, the server part is read again. The refresh follows an
 * event the server just sent, so it is reachable. The console has no other socket.
 */
export function PrintersLive({ slug }: { slug: string }) {
  const router = useRouter();
  const connection = useBoardSocket(slug, {
    onPrinterChanged: () => router.refresh(),
    onConnect: () => router.refresh(),
  });
  return <span hidden data-testid="printers-live" data-connection={connection} />;
}
