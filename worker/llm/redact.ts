// Keys never leave the provider: every message that could reach a log, a trajectory or the UI
// passes through redactSecrets first.

/** Replace the key (and anything that looks like a bearer key) with a placeholder. */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted key]');
  // provider error bodies echo partial keys such as "sk-proj-abc…wxyz"; and Authorization headers
  out = out.replace(/\b(sk|rk|pk|or|ds)-[A-Za-z0-9_*.-]{6,}/g, '[redacted key]');
  out = out.replace(/(Bearer\s+)[^\s"']+/gi, '$1[redacted]');
  return out;
}

/**
 * Replaces each given secret (exactly as configured) wherever it occurs — for recorded text at large (replies, tool
 * output, code), where redactSecrets' key-shaped patterns would also change ordinary text.
 */
export function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted key]');
  return out;
}
