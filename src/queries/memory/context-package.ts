/** Spec §2.2: a short text for the connector within a size budget, a summary, and results grouped by type. */
export interface ContextPackage {
  context: string;
  summary: string;
  sections: Record<string, Array<{ n: number; memory_item_id: number; title: string; excerpt: string }>>;
}

/** The `context` text never exceeds this many characters; snippets that do not fit are left out. */
export const CONTEXT_BUDGET_CHARS = 4000;
const EXCERPT_CHARS = 400;

export interface ContextEntry {
  memory_item_id: number;
  memory_source_id: number;
  title: string;
  type: string;
  excerpt: string;
}

export function buildContextPackage(query: string, entries: ContextEntry[]): ContextPackage {
  const lines: string[] = [];
  let used = 0;
  const sections: ContextPackage['sections'] = {};
  entries.forEach((entry, index) => {
    const n = index + 1;
    const excerpt = clip(entry.excerpt.replace(/\s+/g, ' ').trim(), EXCERPT_CHARS);
    (sections[entry.type] ??= []).push({
      n,
      memory_item_id: entry.memory_item_id,
      title: entry.title,
      excerpt,
    });
    const line = `[${n}] ${entry.title} (item ${entry.memory_item_id}): ${excerpt}`;
    if (used + line.length + 1 <= CONTEXT_BUDGET_CHARS) {
      lines.push(line);
      used += line.length + 1;
    }
  });
  const sources = new Set(entries.map((entry) => entry.memory_source_id)).size;
  const summary =
    entries.length === 0
      ? `No memory matched "${clip(query, 80)}".`
      : `${entries.length} result${entries.length === 1 ? '' : 's'} from ${sources} source${sources === 1 ? '' : 's'} for "${clip(query, 80)}"` +
        (lines.length < entries.length ? `; ${lines.length} fit in the context budget.` : '.');
  return { context: lines.join('\n'), summary, sections };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
