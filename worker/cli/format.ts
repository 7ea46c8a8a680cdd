// Plain-text renderings of engine results for the CLI (JSON output needs none).
import type { ValidationResult } from '../contracts/runner-api.ts';

/** `warnings`: how the patch was applied other than exactly (fuzz, offsets, lossy decoding), under the verdict */
export function formatValidation(bugId: string, r: ValidationResult, warnings: readonly string[] = []): string {
  const lines = [`${bugId}: ${r.plausible ? 'PASS — every test passes' : r.compiled ? 'FAIL — tests fail' : 'FAIL — does not compile'} (${r.path} path, ${Math.round(r.timingsMs.total)} ms${r.cached ? ', cached' : ''})`];
  for (const w of warnings) lines.push(`  warning: ${w}`);
  for (const d of r.diagnostics) lines.push(`  ${d.kind}: ${d.file}:${d.line}: ${d.message}`);
  if (r.compiled) lines.push(r.report.trimEnd());
  return lines.join('\n');
}
