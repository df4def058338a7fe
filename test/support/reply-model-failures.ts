import type { SystemStatusCode } from '../../src/commands/replies/outcome-policy';
import { reply, type ModelServer } from './model-server';

export interface ModelFailure {
  code: SystemStatusCode;
  why: string;
  /** The retry_after_ms the client is told, when the provider's Retry-After replaces the table's (else the table's). */
  retryAfterMs?: number;
  /** Scripts the model server so the next reply fails this way. */
  script: () => void;
}

/** Model faults and verdicts, each with the §7 code a reply gets for it (needs CAIRN_MODEL_TIMEOUT_MS short). */
export function modelFailures(server: () => ModelServer): ModelFailure[] {
  const model = {
    script: {
      draft: (...a: Parameters<ModelServer['script']['draft']>) => server().script.draft(...a),
      review: (...a: Parameters<ModelServer['script']['review']>) => server().script.review(...a),
    },
  };
  return [
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer 500',
      script: () => model.script.draft(reply.status(500)),
    },
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer timeout',
      script: () => model.script.draft(reply.hang()),
    },
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer 429 with Retry-After: 1',
      retryAfterMs: 1000,
      script: () => model.script.draft(reply.status(429)),
    },
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer 429 with Retry-After: 120 (bounded to 60 s)',
      retryAfterMs: 60_000,
      script: () => model.script.draft(reply.status(429, '120')),
    },
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer 503 with Retry-After: 7',
      retryAfterMs: 7000,
      script: () => model.script.draft(reply.status(503, '7')),
    },
    {
      code: 'provider_unavailable',
      why: 'composer 401 (bad key)',
      script: () => model.script.draft(reply.status(401)),
    },
    {
      code: 'assistant_answer_incomplete',
      why: 'composer answers non-JSON',
      script: () => model.script.draft(reply.raw('not json at all')),
    },
    {
      code: 'assistant_answer_incomplete',
      why: 'composer output truncated',
      script: () => model.script.draft(reply.raw('{"answer":', { finishReason: 'length' })),
    },
    {
      code: 'selected_references_invalid',
      why: 'the draft cites an id outside its evidence',
      script: () => model.script.draft(reply.citeUnknown()),
    },
    {
      code: 'semantic_review_failed',
      why: 'the reviewer finds unsupported claims in the draft and again in the redraft',
      script: () => model.script.review(reply.unsupported(), reply.unsupported()),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer answers garbage (not an object)',
      script: () => model.script.review(reply.raw('[]')),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer answers non-JSON',
      script: () => model.script.review(reply.raw('I think it is fine')),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer leaves out a field',
      script: () => model.script.review(reply.json({ sufficient: true, answers_as_asked: true, claims: [] })),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer output is truncated',
      script: () => model.script.review(reply.raw('{"sufficient":', { finishReason: 'length' })),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer times out',
      script: () => model.script.review(reply.hang()),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer answers 500',
      script: () => model.script.review(reply.status(500)),
    },
    {
      code: 'ai_temporarily_unavailable',
      why: 'the reviewer answers 503 with Retry-After: 2',
      retryAfterMs: 2000,
      script: () => model.script.review(reply.status(503, '2')),
    },
  ];
}
