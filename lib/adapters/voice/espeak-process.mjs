/**
 * The fallback voice's renderer: eSpeak NG (GPL-3.0-or-later, npm `espeak-ng`) compiled to
 * WebAssembly, run in a process of its own so the GPL program stays at arm's length from
 * the MIT app (decision 0008). voice.server.ts forks it and talks over IPC:
 *
 *   parent → { id, voice, text }     child → { id, wav: Uint8Array } | { id, error }
 *
 * One message at a time: the parent never sends the next request before the answer.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import ESpeakNg from "espeak-ng";

const require = createRequire(import.meta.url);
// Compiled once: each render then only instantiates the module (eSpeak's main() exits).
const wasm = new WebAssembly.Module(readFileSync(require.resolve("espeak-ng").replace(/espeak-ng\.js$/, "espeak-ng.wasm")));

const VOICES = new Set(["en-us", "cmn"]);
const MAX_TEXT = 200;

async function render(voice, text) {
  if (!VOICES.has(voice)) throw new Error(`unknown voice ${voice}`);
  if (typeof text !== "string" || !text || text.length > MAX_TEXT) throw new Error("bad text");
  const espeak = await ESpeakNg({
    // "--" ends the options, so text can never be read as a flag.
    arguments: ["-w", "/out.wav", "-v", voice, "-s", voice === "cmn" ? "150" : "160", "--", text],
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(wasm, imports).then((instance) => done(instance));
      return {};
    },
    print() {},
    printErr() {},
  });
  return espeak.FS.readFile("/out.wav");
}

process.on("message", async (msg) => {
  try {
    const wav = await render(msg.voice, msg.text);
    process.send({ id: msg.id, wav });
  } catch (e) {
    process.send({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
  }
});
// The app went away (crash or shutdown): leave with it.
process.on("disconnect", () => process.exit(0));
