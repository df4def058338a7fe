import type { CairnConfig } from '../config/config';
import { OpenAiGateway } from './openai-gateway';

/** Embeddings are optional: without CAIRN_EMBEDDING_MODEL, search is lexical only. */
export abstract class Embeddings {
  abstract readonly enabled: boolean;
  abstract embed(texts: string[]): Promise<number[][]>;
}

export class ModelEmbeddings extends Embeddings {
  readonly enabled = true;
  private readonly gateway: OpenAiGateway;

  constructor(
    private readonly model: string,
    config: Pick<CairnConfig, 'openaiBaseUrl' | 'openaiApiKey'>,
  ) {
    super();
    this.gateway = new OpenAiGateway({
      baseUrl: config.openaiBaseUrl,
      apiKey: config.openaiApiKey,
      timeoutMs: 15_000,
    });
  }

  /** Batches of 64 texts per call. */
  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += 64)
      out.push(...(await this.gateway.embed(this.model, texts.slice(i, i + 64))));
    return out;
  }
}

export class NoEmbeddings extends Embeddings {
  readonly enabled = false;
  embed(): Promise<number[][]> {
    return Promise.reject(new Error('embeddings are not configured (CAIRN_EMBEDDING_MODEL)'));
  }
}

export function embeddingsFor(config: CairnConfig): Embeddings {
  return config.embeddingModel ? new ModelEmbeddings(config.embeddingModel, config) : new NoEmbeddings();
}
