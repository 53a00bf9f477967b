/**
 * The numbers the Lua scripts reply with, named once (as BullMQ names its scripts' codes in
 * ErrorCode). scripts.server.ts writes these same tables into every script that says
 * `--- @include "reply-codes"`, so the Lua side reads `IssueReply.FAST` where TypeScript
 * reads `IssueReply.FAST`, and the two cannot disagree.
 */

/** issue-numbers-n.lua: the first element of each key's part of the reply (its header says what follows). */
export const IssueReply = {
  /** Fast path: the hinted block served every caller; `left` follows. */
  FAST: 1,
  /** As FAST, and the caller of the last number holds the lease to reserve the next block. */
  FAST_REFILL: 3,
  /** Full path: every caller got a number. */
  FULL: 4,
  /** Full path: the blocks ran out before every caller got a number. */
  RAN_OUT: 5,
  /** The counter is missing from Redis (restarted empty, evicted). */
  MISSING: 6,
} as const;

/**
 * Yes or no: the reply of install-block-1.lua (installed), burn-block-1.lua (burned),
 * extend-lock-1.lua and release-lock-1.lua (still held), and the lease and refill flags
 * inside issue-numbers-n.lua's parts.
 */
export const Flag = {
  NO: 0,
  YES: 1,
} as const;

export type IssueReplyCode = (typeof IssueReply)[keyof typeof IssueReply];
export type FlagValue = (typeof Flag)[keyof typeof Flag];

/** The tables as they appear in Lua, by name. */
export const REPLY_TABLES = { IssueReply, Flag } as const;

/** The `reply-codes` include: one Lua table per TypeScript constant, same names, same values. */
export function replyCodesLua(): string {
  const tables = Object.entries(REPLY_TABLES).map(([name, codes]) => {
    const fields = Object.entries(codes).map(([key, value]) => `${key} = ${value}`);
    return `local ${name} = { ${fields.join(", ")} }`;
  });
  return ["-- Reply codes, generated from lua/reply-codes.ts when the script is loaded.", ...tables].join("\n");
}
