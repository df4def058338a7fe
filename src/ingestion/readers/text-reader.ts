import {
  documentEntry,
  fileStem,
  MAX_TEXT_FILE_BYTES,
  readWholeFile,
  tooLong,
  type ReadEntry,
  type ReadOptions,
  type SourceFile,
} from './reader-types';

/**
 * A plain-text file is one document, chunked at blank lines. Its title is the file name (plain text has no
 * reliable title line), unless the run gives one.
 */
export async function* readText(file: SourceFile, options: ReadOptions): AsyncGenerator<ReadEntry> {
  const text = await readWholeFile(file, MAX_TEXT_FILE_BYTES);
  if (typeof text !== 'string') {
    yield text;
    return;
  }
  const long = tooLong(file.path, text, file.size);
  if (long) {
    yield long;
    return;
  }
  yield documentEntry(
    file.path,
    { key: file.key, label: file.label, title: fileStem(file.path), content: text, format: 'text' },
    options,
    false,
    file.size,
  );
}
