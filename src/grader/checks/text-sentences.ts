/**
 * The sentences of a Markdown or plain-text answer. A paragraph's lines wrap one text, so a sentence
 * may run over a line break; a blank line, a heading, a list item and a table row each start a new
 * one, and inside them a sentence ends at `.`, `!` or `?` followed by a space. Emphasis marks are
 * kept (a pattern reads through them), the line breaks are not.
 */
export function sentences(text: string): string[] {
  const units: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) units.push(current.join(' '));
    current = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }
    if (/^(#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>)/.test(line)) flush();
    current.push(line);
    if (/^(#{1,6}\s|\|)/.test(line)) flush();
  }
  flush();
  return units.flatMap((u) => u.split(/(?<=[.!?])(?<!^\d+\.)\s+(?=\S)/)).map((s) => s.trim()).filter((s) => s.length > 0);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a sentence names `text` whole: not as part of a longer word, number or identifier (CM-12 is not in CM-123). */
export function mentions(sentence: string, text: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escape(text)}(?![\\p{L}\\p{N}_]|-[\\p{L}\\p{N}])`, 'iu').test(sentence);
}
