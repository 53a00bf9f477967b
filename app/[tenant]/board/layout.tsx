import type { Metadata } from "next";

type Props = { params: Promise<{ tenant: string }>; children: React.ReactNode };

/** Links the board's own web app manifest: installed on a TV, it opens this restaurant's board full-screen. */
export async function generateMetadata({ params }: Omit<Props, "children">): Promise<Metadata> {
  const { tenant } = await params;
  return { manifest: `/${encodeURIComponent(tenant)}/manifest/board`, appleWebApp: { capable: true, statusBarStyle: "black-translucent" } };
}

export default function BoardLayout({ children }: Props) {
  return children;
}
