/**
 * A stand-in for lib/adapters/voice/espeak-process.mjs in unit tests: the same IPC, and a
 * "clip" that is the voice and text it was asked for, so a test can tell clips apart
 * without eSpeak NG. Answers on the next turn, so the parent's queue builds up meanwhile.
 */
process.on("message", (msg) => {
  setImmediate(() => process.send({ id: msg.id, wav: new TextEncoder().encode(`${msg.voice}:${msg.text}`) }));
});
process.on("disconnect", () => process.exit(0));
