/** The time as the core reads it (numbering.ts's systemClock; tests hold their own). */

export interface Clock {
  now(): Date;
}
