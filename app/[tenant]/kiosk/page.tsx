import type { Metadata } from "next";
import { requireStaff } from "@/lib/adapters/next/staff.server";
import { StaffHeader } from "@/app/_components/staff-header";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { KioskForm } from "./kiosk-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Kiosk" };

export default async function KioskPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["CASHIER"], `/${slug}/kiosk`);
  return (
    <>
      <StaffHeader tenant={caller.tenant} role={caller.role} current="kiosk" />
      <main className="mx-auto max-w-5xl px-4 py-6">
        <h1 className="mb-6 text-3xl font-extrabold tracking-tight">New order</h1>
        <KioskForm slug={caller.tenant.slug} />
      </main>
    </>
  );
}
