import type { NetworkInterfaceInfo } from "node:os";

export function devOrigins(input?: { interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>; publicUrl?: string; hostName?: string }): string[];
