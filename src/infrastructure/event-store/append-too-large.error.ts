/**
 * The append limit both event stores enforce: KurrentDB/EventStoreDB refuse an append whose events together exceed
 * `MaxAppendSize` (default 1 MiB); the embedded store applies the same bound (CAIRN_MAX_APPEND_BYTES), so a caller
 * that would fail on the production engine fails in every test too.
 */

/** KurrentDB's default MaxAppendSize. */
export const DEFAULT_MAX_APPEND_BYTES = 1024 * 1024;
/** The most CAIRN_MAX_APPEND_BYTES may be: no stored event's data is larger. */
export const MAX_APPEND_BYTES_CEILING = 64 * 1024 * 1024;

/** The append's events together are larger than the store accepts in one append. */
export class AppendTooLargeError extends Error {
  override readonly name = 'AppendTooLargeError';
  constructor(
    readonly stream: string,
    /** The append's size as this store counts it, or null when the engine did not say. */
    readonly size: number | null,
    readonly limit: number,
  ) {
    super(
      `stream ${stream}: append of ${size === null ? 'more than' : `${size} bytes, more than`} ${limit} bytes ` +
        'refused (the event store limit on one append)',
    );
  }
}

/**
 * An append's size as KurrentDB counts it towards MaxAppendSize (its gRPC append sums `Event.SizeOnDisk` over the
 * events: data bytes + metadata bytes + 2 × the type's length in UTF-16 units); data and metadata are the JSON
 * the client sends (UTF-8).
 */
export function appendSize(
  events: ReadonlyArray<{ type: string; dataJson: string; metadata: unknown }>,
): number {
  let size = 0;
  for (const event of events) {
    size += event.type.length * 2;
    size += Buffer.byteLength(event.dataJson);
    size += Buffer.byteLength(JSON.stringify(event.metadata));
  }
  return size;
}
