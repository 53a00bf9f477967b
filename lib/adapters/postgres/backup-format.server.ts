/**
 * The backup file (decision 0045): gzip of
 *
 *   "NEXTUP-BACKUP\n"                  magic, so that another file is refused in a sentence
 *   frame(header JSON)                  format, migrations, the snapshot's clock, tables and row counts
 *   per table, in load order:
 *     frame(COPY text data)…  frame()   the table's rows as `COPY … TO STDOUT` wrote them; empty frame ends it
 *   frame(trailer JSON)                 each table's sha256 and row count, and the whole data's sha256
 *
 * A frame is a 4-byte big-endian length and that many bytes. Lengths, not a text end
 * marker: COPY's `\.` is deprecated as one, and a frame never needs the data parsed.
 */
import { AppError } from "@/lib/core/errors";

export const BACKUP_MAGIC = Buffer.from("NEXTUP-BACKUP\n", "utf8");
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupTable {
  name: string;
  columns: string[];
  rows: number;
}

export interface BackupHeader {
  /** A whole database, or one restaurant of it (`npm run org -- export`, decision 0050). */
  format: "nextup-backup" | "nextup-restaurant";
  version: typeof BACKUP_FORMAT_VERSION;
  /** The database clock (`now()`) of the snapshot: what the restore measures "after the backup" from. */
  snapshotAt: string;
  /** PostgreSQL's `server_version` the backup was read from (information only). */
  server: string;
  /** The finished migrations of the backed-up database, in order, with their checksums. */
  migrations: { name: string; checksum: string }[];
  /** Every application table, parents before children (the order a restore loads them in). */
  tables: BackupTable[];
  /** nextup-restaurant: the restaurant it holds. */
  tenant?: { id: string; slug: string; name: string };
}

export interface BackupTrailer {
  tables: { name: string; rows: number; sha256: string }[];
  /** sha256 of every table's data, in order. */
  sha256: string;
}

export function frame(data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

export const jsonFrame = (value: unknown): Buffer => frame(Buffer.from(JSON.stringify(value), "utf8"));

const corrupt = (why: string) => new AppError("BAD_INPUT", { message: `the backup file is damaged or incomplete: ${why}`, reason: "backupDamaged" });

/** Reads frames from a (gunzipped) byte stream. */
export class FrameReader {
  private buffered: Buffer[] = [];
  private size = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.size < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.buffered.push(next.value);
        this.size += next.value.length;
      }
    }
    return this.size >= n;
  }

  private take(n: number): Buffer {
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length ? [rest] : [];
    this.size = rest.length;
    return out;
  }

  /** The magic bytes; false when the file is not a backup. */
  async magic(): Promise<boolean> {
    if (!(await this.fill(BACKUP_MAGIC.length))) return false;
    return this.take(BACKUP_MAGIC.length).equals(BACKUP_MAGIC);
  }

  async next(): Promise<Buffer> {
    if (!(await this.fill(4))) throw corrupt("it ends in the middle");
    const length = this.take(4).readUInt32BE(0);
    if (!(await this.fill(length))) throw corrupt("it ends in the middle");
    return this.take(length);
  }

  async json<T>(): Promise<T> {
    const data = await this.next();
    try {
      return JSON.parse(data.toString("utf8")) as T;
    } catch {
      throw corrupt("a header is not JSON");
    }
  }

  /** True when nothing follows (after the trailer). */
  async atEnd(): Promise<boolean> {
    return !(await this.fill(1));
  }
}

/** The header as read from a file: any JSON until checked. */
export function checkHeader(h: Partial<Omit<BackupHeader, "version">> & { version?: unknown }, format: BackupHeader["format"] = "nextup-backup"): BackupHeader {
  if (h?.format !== format && (h?.format === "nextup-backup" || h?.format === "nextup-restaurant")) {
    throw new AppError("BAD_INPUT", {
      message:
        format === "nextup-backup"
          ? "this file is one restaurant's export: bring it in with npm run org -- import"
          : "this file is a whole database's backup: restore it with npm run restore",
      reason: "wrongKindOfFile",
    });
  }
  if (h?.format !== format || !Array.isArray(h.tables) || !Array.isArray(h.migrations)) throw corrupt("its header is not a Nextup backup's");
  if (format === "nextup-restaurant" && (typeof h.tenant?.id !== "string" || typeof h.tenant?.slug !== "string"))
    throw corrupt("its header names no restaurant");
  if (h.version !== BACKUP_FORMAT_VERSION) {
    throw new AppError("BAD_INPUT", {
      message: `this backup is in format ${JSON.stringify(h.version)}; this release reads format ${String(BACKUP_FORMAT_VERSION)}: restore it with the release that wrote it, or a newer one`,
      reason: "backupFormat",
    });
  }
  return h as BackupHeader;
}

/**
 * After the last table: the trailer's checksums must match what was loaded (each table's and the
 * whole data's), and nothing may follow it. `damaged` says which file it is (a backup, an export).
 */
export async function checkTrailer(
  reader: FrameReader,
  loaded: { name: string; sha256: string }[],
  allSha256: string,
  damaged: (why: string) => Error,
): Promise<void> {
  const trailer = await reader.json<BackupTrailer>();
  const sums = new Map((trailer.tables ?? []).map((t) => [t.name, t.sha256]));
  const bad = loaded.find((t) => sums.get(t.name) !== t.sha256);
  if (bad || trailer.sha256 !== allSha256) throw damaged(`the checksum of ${bad?.name ?? "its data"} does not match`);
  if (!(await reader.atEnd())) throw damaged("something follows its end");
}
