// `npx tsx scripts/make-chime.ts`: writes public/sounds/chime.wav, the two-note chime the
// board and the customer's phone play before a number is called. Synthesised here (no
// recording to license): two decaying sine notes, 16-bit mono PCM at 22.05 kHz.
import { writeFileSync } from "node:fs";

const RATE = 22_050;
const NOTES = [
  { freq: 880, start: 0, length: 0.55 }, // A5
  { freq: 659.25, start: 0.32, length: 0.9 }, // E5
];
const seconds = 1.3;
const samples = new Float64Array(Math.ceil(RATE * seconds));
for (const n of NOTES) {
  const from = Math.floor(n.start * RATE);
  const count = Math.floor(n.length * RATE);
  for (let i = 0; i < count && from + i < samples.length; i++) {
    const t = i / RATE;
    const attack = Math.min(1, t / 0.01);
    const decay = Math.exp(-t * 4.5);
    // A little of the octave above makes it a bell rather than a beep.
    samples[from + i]! += 0.5 * attack * decay * (Math.sin(2 * Math.PI * n.freq * t) + 0.25 * Math.sin(4 * Math.PI * n.freq * t));
  }
}
const data = Buffer.alloc(samples.length * 2);
samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_000), i * 2));
const header = Buffer.alloc(44);
header.write("RIFF", 0);
header.writeUInt32LE(36 + data.length, 4);
header.write("WAVE", 8);
header.write("fmt ", 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(RATE, 24);
header.writeUInt32LE(RATE * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write("data", 36);
header.writeUInt32LE(data.length, 40);
writeFileSync(new URL("../public/sounds/chime.wav", import.meta.url), Buffer.concat([header, data]));
console.log(`public/sounds/chime.wav: ${seconds} s, ${header.length + data.length} bytes`);
