/** http_ece (MIT, no types of its own): RFC 8188 encrypted content coding with the RFC 8291 Web Push key derivation. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  interface EceParams {
    version?: "aes128gcm" | "aesgcm";
    /** The receiver's public key (encrypt) for Web Push. */
    dh?: Buffer;
    privateKey?: ECDH;
    authSecret?: Buffer;
    salt?: Buffer;
    keyid?: Buffer;
    rs?: number;
    pad?: number;
  }
  export function encrypt(buffer: Buffer, params: EceParams): Buffer;
  export function decrypt(buffer: Buffer, params: EceParams): Buffer;
}
