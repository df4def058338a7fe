/** Maps UTF-16 offsets of a text to 1-based line and column numbers counted in Unicode characters. */
export class TextPositions {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) this.lineStarts.push(i + 1);
    }
  }

  /** 0-based line index of an offset. */
  lineIndexOf(offset: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The last position asked for: a later offset on the same line is counted on from it. */
  private last = { offset: 0, index: 0, column: 1 };

  /**
   * 1-based line and column (in characters, so an emoji counts once) of an offset. Asked in ascending order, the
   * characters of a line are counted once in all (thousands of findings on one long line stay linear).
   */
  position(offset: number): { line: number; column: number } {
    const index = this.lineIndexOf(offset);
    const from = this.last.index === index && this.last.offset <= offset ? this.last : null;
    const start = from ? from.offset : this.lineStarts[index];
    const column = (from ? from.column : 1) + characterCount(this.text.slice(start, offset));
    this.last = { offset, index, column };
    return { line: index + 1, column };
  }
}

/** Number of Unicode characters (code points) in a string. */
export function characterCount(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
