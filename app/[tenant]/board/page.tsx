import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { LiveBoard } from "./live-board";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ tenant: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tenant = await tenantOr404((await params).tenant);
  const t = await getTranslations("board");
  return { title: t("title", { name: tenant.name }) };
}

/** The public dining-room board, for a TV: server-rendered, then live over Socket.IO. */
export default async function BoardPage({ params }: Props) {
  const tenant = await tenantOr404((await params).tenant);
  const app = getApp();
  const board = await app.orders.board(tenant);
  return <LiveBoard slug={tenant.slug} name={tenant.name} initial={board} fallbackVoice={app.env.VOICE_FALLBACK} />;
}
