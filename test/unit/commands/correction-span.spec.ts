import {
  inferFormat,
  isDerivedSummary,
  locateCitedSpan,
  replaceSpanOnce,
} from '../../../src/commands/memory/correction-span';
import type { MemoryChunk } from '../../../src/events/memory/memory.events';
import { chunkDocument } from '../../../src/ingestion/chunking';

const HOURS = [
  '# Opening hours',
  '',
  '## Weekdays',
  'Monday to Friday: 8:00 to 18:00.',
  '',
  '## Saturday',
  'Saturday: 9:00 to 13:00.',
  '',
  '## Sunday',
  'Closed on Sundays and public holidays.',
].join('\n');

const chunksOf = (content: string, format: 'markdown' | 'text' = 'markdown'): MemoryChunk[] =>
  chunkDocument(content, format).map((piece, i) => ({ ...piece, memory_chunk_id: 100 + i }));

describe('the span a correction replaces', () => {
  const chunks = chunksOf(HOURS);
  const saturday = chunks.find((c) => c.text.startsWith('Saturday'))!;
  const weekdays = chunks.find((c) => c.text.startsWith('Monday'))!;

  it('is the cited chunk the excerpt was cut from, as it stands in the content', () => {
    const located = locateCitedSpan(
      HOURS,
      chunks,
      [weekdays.memory_chunk_id, saturday.memory_chunk_id],
      '«Saturday»: 9:00 to 13:00.',
    );
    expect(located).toEqual({ memory_chunk_id: saturday.memory_chunk_id, span: 'Saturday: 9:00 to 13:00.' });
  });

  it('is the first cited chunk when the excerpt matches none; none when no cited chunk is in the revision', () => {
    expect(locateCitedSpan(HOURS, chunks, [weekdays.memory_chunk_id], '…unrelated…')?.span).toBe(
      'Monday to Friday: 8:00 to 18:00.',
    );
    expect(locateCitedSpan(HOURS, chunks, [999], 'x')).toBeNull();
  });

  it('is unknown (null) when the chunk text is not verbatim in the content (Markdown marks reduced)', () => {
    const marked = HOURS.replace('Saturday: 9:00', '**Saturday**: 9:00');
    const markedChunks = chunksOf(marked);
    const id = markedChunks.find((c) => c.text.startsWith('Saturday'))!.memory_chunk_id;
    expect(locateCitedSpan(marked, markedChunks, [id], 'Saturday')).toEqual({
      memory_chunk_id: id,
      span: null,
    });
  });

  it('is replaced once and only there; absent or repeated text replaces nothing', () => {
    expect(replaceSpanOnce(HOURS, 'Saturday: 9:00 to 13:00.', 'Saturday: 9:00 to 12:00.')).toBe(
      HOURS.replace('13:00', '12:00'),
    );
    expect(replaceSpanOnce(HOURS, 'Saturday: 10:00', 'x')).toBeNull();
    expect(replaceSpanOnce(`${HOURS}\n${HOURS}`, 'Saturday: 9:00 to 13:00.', 'x')).toBeNull();
  });

  it('re-chunks in the format that gives back the stored chunks', () => {
    expect(inferFormat(HOURS, chunksOf(HOURS, 'markdown'))).toBe('markdown');
    const text = 'Line one.\n\n# not a heading in text';
    expect(inferFormat(text, chunksOf(text, 'text'))).toBe('text');
  });

  it('tells a derived summary from a given one', () => {
    expect(isDerivedSummary('Monday to Friday: 8:00 to 18:00.', 'Opening hours', chunks)).toBe(true);
    expect(isDerivedSummary('When the clinic is open.', 'Opening hours', chunks)).toBe(false);
  });
});
