import {
  legacyRequestFingerprint,
  replyIdentities,
  conversationThreadDigest,
  replyIdentity,
  requestFingerprint,
  type ReplyRequestContent,
} from '../../../src/commands/replies/reply-identity';
import { ValidationFailedError } from '../../../src/common/errors';

const tenant = { organization_id: 1, connector_id: 2, chatbot_id: 3 };

const content: ReplyRequestContent = {
  chatbot_id: 3,
  external_thread_id: 'thread-1',
  external_message_id: 'msg-1',
  idempotency_key: 'key-1',
  channel: 'email',
  response_mode: 'suggested_reply',
  payload: {
    subject: 'Opening hours',
    from: 'a@example.com',
    sent_at: '2026-07-17T10:00:00Z',
    text: 'When are you open?',
    history: [{ role: 'customer', text: 'Hi' }],
  },
};

describe('reply identity', () => {
  it('uses the idempotency key when present, even if an external message id is sent too', () => {
    const both = replyIdentity({ ...tenant, idempotency_key: 'key-1', external_message_id: 'msg-1' });
    expect(both).toMatchObject({ key_kind: 'idempotency_key', key: 'key-1' });
    expect(both.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(replyIdentity({ ...tenant, idempotency_key: 'key-1' })).toEqual(both);
  });

  it('falls back to the external message id', () => {
    expect(replyIdentity({ ...tenant, external_message_id: 'msg-1', idempotency_key: null })).toMatchObject({
      key_kind: 'external_message_id',
      key: 'msg-1',
    });
    expect(replyIdentity({ ...tenant, idempotency_key: '', external_message_id: 'msg-1' }).key_kind).toBe(
      'external_message_id',
    );
  });

  it('is stable, and differs per tenant, connector, chatbot, key and key kind', () => {
    const base = replyIdentity({ ...tenant, idempotency_key: 'k' }).digest;
    expect(
      replyIdentity({ chatbot_id: 3, connector_id: 2, organization_id: 1, idempotency_key: 'k' }).digest,
    ).toBe(base);
    const others = [
      replyIdentity({ ...tenant, organization_id: 9, idempotency_key: 'k' }),
      replyIdentity({ ...tenant, connector_id: 9, idempotency_key: 'k' }),
      replyIdentity({ ...tenant, chatbot_id: 9, idempotency_key: 'k' }),
      replyIdentity({ ...tenant, idempotency_key: 'k2' }),
      replyIdentity({ ...tenant, external_message_id: 'k' }),
    ].map((identity) => identity.digest);
    expect(new Set([base, ...others]).size).toBe(6);
  });

  it('rejects a request with neither key (422, both fields named)', () => {
    for (const keys of [{}, { idempotency_key: null, external_message_id: null }, { idempotency_key: '' }]) {
      let caught: unknown;
      try {
        replyIdentity({ ...tenant, ...keys });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ValidationFailedError);
      expect(caught).toMatchObject({
        status: 422,
        code: 'validation_failed',
        details: [{ field: 'idempotency_key' }, { field: 'external_message_id' }],
      });
    }
  });
});

describe('request fingerprint', () => {
  it('is a SHA-256 hex stable under key order (top level and nested)', () => {
    const reordered: ReplyRequestContent = {
      payload: {
        history: [{ text: 'Hi', role: 'customer' }],
        text: 'When are you open?',
        sent_at: '2026-07-17T10:00:00Z',
        from: 'a@example.com',
        subject: 'Opening hours',
      },
      response_mode: 'suggested_reply',
      channel: 'email',
      idempotency_key: 'key-1',
      external_message_id: 'msg-1',
      external_thread_id: 'thread-1',
      chatbot_id: 3,
    };
    expect(requestFingerprint(content)).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(content));
  });

  it.each<[string, Partial<ReplyRequestContent>]>([
    ['chatbot_id', { chatbot_id: 4 }],
    ['external_thread_id', { external_thread_id: 'thread-2' }],
    ['channel', { channel: 'chat' }],
    ['response_mode', { response_mode: 'draft' }],
    ['payload.text', { payload: { ...content.payload, text: 'Are you open on Sunday?' } }],
    ['payload.history', { payload: { ...content.payload, history: [] } }],
    ['payload recipient', { payload: { ...content.payload, to: 'b@example.com' } }],
  ])('differs when %s changes', (_field, change) => {
    expect(requestFingerprint({ ...content, ...change })).not.toBe(requestFingerprint(content));
  });

  it('does not cover the retry keys: they say which request this is, not what it asks (spec §3)', () => {
    for (const change of [
      { external_message_id: 'msg-2' },
      { idempotency_key: 'key-2' },
      { idempotency_key: null },
    ])
      expect(requestFingerprint({ ...content, ...change })).toBe(requestFingerprint(content));
  });

  it('recognizes requests recorded before version 2 by their legacy fingerprint (keys included)', () => {
    expect(legacyRequestFingerprint(content)).not.toBe(requestFingerprint(content));
    expect(legacyRequestFingerprint({ ...content, idempotency_key: 'key-2' })).not.toBe(
      legacyRequestFingerprint(content),
    );
  });

  it('treats absent optional fields as null', () => {
    const withUndefined = {
      ...content,
      channel: undefined,
      response_mode: undefined,
    } as unknown as ReplyRequestContent;
    expect(requestFingerprint(withUndefined)).toBe(
      requestFingerprint({ ...content, channel: null, response_mode: null }),
    );
  });

  it('ignores metadata (free-form caller bookkeeping)', () => {
    const withMetadata = { ...content, metadata: { source: 'crm', attempt: 2 } } as ReplyRequestContent;
    expect(requestFingerprint(withMetadata)).toBe(requestFingerprint(content));
  });
});

describe('conversation thread digest', () => {
  it('is stable per (organization, connector, chatbot, external_thread_id) and differs otherwise', () => {
    const key = { ...tenant, external_thread_id: 'thread-1' };
    expect(conversationThreadDigest({ ...key })).toBe(conversationThreadDigest(key));
    expect(conversationThreadDigest({ ...key, external_thread_id: 'thread-2' })).not.toBe(
      conversationThreadDigest(key),
    );
    expect(conversationThreadDigest({ ...key, connector_id: 5 })).not.toBe(conversationThreadDigest(key));
  });
});

describe('reply identities: each key identifies the request (spec §3)', () => {
  const scope = { organization_id: 1, connector_id: 2, chatbot_id: 3 };
  it('gives the idempotency key first, then the external message id', () => {
    const both = replyIdentities({ ...scope, idempotency_key: 'K1', external_message_id: 'M1' });
    expect(both.map((i) => [i.key_kind, i.key])).toEqual([
      ['idempotency_key', 'K1'],
      ['external_message_id', 'M1'],
    ]);
    const byMessage = replyIdentities({ ...scope, external_message_id: 'M1' });
    // The message id names the same claim whether or not a key came with it.
    expect(byMessage).toEqual([both[1]]);
    expect(replyIdentities({ ...scope, idempotency_key: 'K1' })).toEqual([both[0]]);
  });
});
