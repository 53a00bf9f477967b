export interface Alternative {
  major: number;
  minor: number;
  patch: number;
  /** As written, without the caret: "24.11". */
  text: string;
}
export function parseRange(text: unknown): Alternative[] | null;
export function accepts(range: Alternative[], version: string): boolean;
export function refusal(range: Alternative[], version: string): string;
export function verdict(engines: unknown, version: string, env: Record<string, string | undefined>): { exit: boolean; message: string | null };
