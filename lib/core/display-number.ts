/** What screens and tickets show: `K12`, or `12` without a prefix (decision 0027). */
export const displayNumber = (prefix: string, number: number): string => `${prefix}${number}`;
