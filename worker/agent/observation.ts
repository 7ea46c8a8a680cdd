// Observation trimming as mini-swe-agent / HAFixAgent do it: keep the head and the tail, say how much was cut.
export function trimObservation(text: string, spec: { maxChars: number | null; head: number; tail: number }): { text: string; elided: number } {
  if (!spec.maxChars || text.length <= spec.maxChars) return { text, elided: 0 };
  const elided = text.length - spec.head - spec.tail;
  return {
    text: `${text.slice(0, spec.head)}\n[… ${elided} characters elided …]\n${spec.tail ? text.slice(-spec.tail) : ''}`,
    elided,
  };
}
