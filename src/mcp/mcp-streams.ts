import { Inject, Injectable } from '@nestjs/common';
import { TooManyStreamsError } from '../common/errors';
import type { CairnConfig } from '../config/config';
import { CONFIG } from '../core.module';

/**
 * The open `GET /mcp` event streams of this process, per connector token (docs/mcp.md#event-streams-budgets-and-browsers): at most
 * `mcpStreams.perToken` at once. Each process counts its own (with CAIRN_HTTP_WORKERS, per worker).
 */
@Injectable()
export class McpStreams {
  private readonly open = new Map<string, number>();

  constructor(@Inject(CONFIG) private readonly config: CairnConfig) {}

  /** Counts one more stream of `tokenId`, or throws 429 `too_many_streams`; call the result once it closes. */
  claim(tokenId: string): () => void {
    const limit = this.config.mcpStreams.perToken;
    const count = this.open.get(tokenId) ?? 0;
    if (count >= limit) throw new TooManyStreamsError(limit);
    this.open.set(tokenId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(tokenId) ?? 1) - 1;
      if (left > 0) this.open.set(tokenId, left);
      else this.open.delete(tokenId);
    };
  }

  /** How long a stream may stay without a message before it is closed. */
  get idleMs(): number {
    return this.config.mcpStreams.idleMs;
  }
}
