/** The secret part of an API key `nxu_<role>_<prefix>_<secret>`: the secret may itself contain "_". */
export function keySecret(key: string): string {
  return key.split("_").slice(3).join("_");
}
